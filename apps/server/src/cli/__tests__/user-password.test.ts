import { afterAll, describe, expect, it } from "vitest";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { verifyPassword } from "../../identity/accounts/passwords.js";
import { createRepositories } from "../../store/repositories.js";
import { Store } from "../../store/store.js";
import type { CliIo } from "../io.js";
import { runStoreOperation } from "../local-store.js";
import { createUser } from "../../admin/operations.js";
import { runUserPassword } from "../user-password.js";

function captureIo(): CliIo & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (t) => void lines.push(t), err: (t) => void lines.push(t) };
}

describe("ovation user password", () => {
  const data = tempDataDir();
  const config = testConfig(data.dir);
  afterAll(() => data.remove());

  it("sets a password read from standard input and a verified sign-in address; only the hash is stored", async () => {
    await runStoreOperation(config, { op: "user.create", name: "streamer" }, (repos) => createUser(repos, { name: "streamer" }));
    const io = captureIo();
    expect(await runUserPassword(["--user", "streamer", "--email", "me@example.com"], config, io, async () => "a long enough passphrase")).toBe(0);
    expect(io.lines.join("\n")).not.toContain("passphrase");
    const store = await Store.openConfigured(config);
    try {
      const user = createRepositories(store).users.findByName("streamer");
      expect(user?.email).toBe("me@example.com");
      expect(user?.email_verified_at).not.toBeNull();
      expect(await verifyPassword(user?.password_hash ?? "", "a long enough passphrase")).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("refuses a weak password, an unknown user and a user without an address to sign in with", async () => {
    await expect(runUserPassword(["--user", "streamer"], config, captureIo(), async () => "short")).rejects.toThrow(/password/i);
    await expect(runUserPassword(["--user", "nobody", "--email", "x@example.com"], config, captureIo(), async () => "a long enough passphrase")).rejects.toThrow(/No user named nobody/);
    await runStoreOperation(config, { op: "user.create", name: "noaddress" }, (repos) => createUser(repos, { name: "noaddress" }));
    await expect(runUserPassword(["--user", "noaddress"], config, captureIo(), async () => "a long enough passphrase")).rejects.toThrow(/--email/);
  });
});
