import { chmodSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { Server } from "node:net";
import type { Logger } from "pino";
import { z } from "zod";
import { OvationError, definedKeys } from "@ovation/core";
import { CliError } from "../cli-error.js";
import { createToken, createUser, findUser, publicUser, setUserPassword } from "./operations.js";
import type { Repositories } from "../store/repositories.js";
import { issueChatToken, revokeChatToken } from "./chat-token.js";
import { adminRequestSchema, adminSocketPath } from "./admin-protocol.js";
import type { AdminRequest, AdminResponse } from "./admin-protocol.js";

const MAX_REQUEST_BYTES = 16_384;

/** Answers the running server gives besides store operations. */
export interface AdminSocketExtras {
  /** `ovation plugins`: what was loaded and each plugin's status. */
  plugins?: () => unknown;
  /** `ovation simulate`: sends a simulated platform event for the user (resolved here from the request). */
  simulate?: (userId: number, request: Extract<AdminRequest, { op: "simulate" }>) => Promise<unknown>;
}

async function run(repos: Repositories, request: AdminRequest, extras: AdminSocketExtras): Promise<unknown> {
  switch (request.op) {
    case "plugins.list":
      return extras.plugins?.() ?? [];
    case "simulate": {
      if (!extras.simulate) throw new CliError("OVATION_ERR_CLI_USAGE", "This server cannot simulate events.");
      const user = request.user === undefined ? repos.users.list()[0] : findUser(repos, request.user);
      if (!user) throw new CliError("OVATION_ERR_CLI_USER_NOT_FOUND", request.user === undefined ? "simulate: the server has no user yet." : `simulate: no user named ${request.user}.`);
      return extras.simulate(user.id, request);
    }
    case "user.create": {
      const user = createUser(repos, { name: request.name, ...definedKeys({ email: request.email }) });
      await repos.store.persisted();
      return publicUser(user);
    }
    case "user.password": {
      const user = setUserPassword(repos, { user: request.user, password_hash: request.password_hash, ...definedKeys({ email: request.email }) });
      await repos.store.persisted();
      return publicUser(user);
    }
    case "token.create": {
      const token = createToken(repos, { user: request.user, scopes: request.scopes, ...definedKeys({ name: request.name }) });
      await repos.store.persisted();
      return token;
    }
    case "chat.token.issue": {
      const token = issueChatToken(repos, request.user);
      await repos.store.persisted();
      return token;
    }
    case "chat.token.revoke": {
      const revoked = revokeChatToken(repos, request.token);
      await repos.store.persisted();
      return revoked;
    }
  }
}

function answer(error: unknown): AdminResponse {
  if (error instanceof z.ZodError) return { ok: false, code: "OVATION_ERR_CLI_USAGE", message: error.issues.map((i) => i.message).join("; ") };
  if (error instanceof OvationError) return { ok: false, code: error.code, message: error.message };
  return { ok: false, code: "OVATION_ERR_HTTP_INTERNAL", message: "The server failed; see its log." };
}

/**
 * Listens on `<dataDir>/ovation.sock` (mode 0600) for the CLI's `user create` / `token create` and
 * `chat`'s session token (issue, revoke) while the server runs, so the running server stays the only writer of the store.
 * One JSON request per connection, one JSON answer back.
 */
export async function startAdminSocket(dataDir: string, repos: Repositories, logger: Logger, extras: AdminSocketExtras = {}): Promise<Server | null> {
  const path = adminSocketPath(dataDir);
  if (path.length > 100) {
    logger.warn({ path }, "data directory path too long for the admin socket; stop the server to use `ovation user/token create`");
    return null;
  }
  rmSync(path, { force: true });
  const server = createServer((connection) => {
    let buffer = "";
    connection.setEncoding("utf8");
    connection.on("data", (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_BYTES) {
        connection.destroy();
        return;
      }
      const newline = buffer.indexOf("\n");
      if (newline < 0) return;
      const line = buffer.slice(0, newline);
      let reply: Promise<AdminResponse>;
      try {
        const request = adminRequestSchema.parse(JSON.parse(line));
        reply = run(repos, request, extras).then((result): AdminResponse => ({ ok: true, result }), answer);
      } catch (error) {
        reply = Promise.resolve(answer(error instanceof SyntaxError ? new z.ZodError([]) : error));
      }
      void reply.then((r) => connection.end(`${JSON.stringify(r)}\n`));
    });
    connection.on("error", () => connection.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return server;
}

/** Stops the admin socket and removes its file. */
export async function stopAdminSocket(server: Server | null, dataDir: string): Promise<void> {
  if (!server) return;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(adminSocketPath(dataDir), { force: true });
}
