import { connect } from "node:net";
import { ApiError } from "../errors.js";
import { CliError } from "../cli-error.js";
import { adminSocketPath } from "../admin/admin-protocol.js";
import type { AdminRequest, AdminResponse } from "../admin/admin-protocol.js";

/** Sends one request to the running server's admin socket and returns its result (throws its error). */
export async function callRunningServer(dataDir: string, request: AdminRequest, timeoutMs = 10_000): Promise<unknown> {
  const response = await new Promise<AdminResponse>((resolve, reject) => {
    const socket = connect(adminSocketPath(dataDir));
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new ApiError("OVATION_ERR_STORE_LOCKED", { message: "The running Ovation server did not answer on its admin socket." }));
    }, timeoutMs);
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(text) as AdminResponse);
      } catch {
        reject(new ApiError("OVATION_ERR_STORE_LOCKED", { message: "The running Ovation server sent an unreadable answer." }));
      }
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(
        new ApiError("OVATION_ERR_STORE_LOCKED", {
          message: `Another Ovation process holds ${dataDir} and its admin socket is not reachable (${error.message}).`,
        }),
      );
    });
  });
  if (response.ok) return response.result;
  throw new CliError(response.code, response.message);
}
