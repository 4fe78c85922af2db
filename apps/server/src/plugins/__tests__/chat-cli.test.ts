import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";

// `ovation start` and `ovation chat` as a person runs them: the built CLI, the chat in a
// pseudo-terminal (util-linux `script`), keystrokes in, the screen out.
const bin = fileURLToPath(new URL("../../../bin/ovation.mjs", import.meta.url));
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

interface Terminal {
  child: ChildProcess;
  screen(): string;
  type(keys: string): void;
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  exit(): Promise<number | null>;
}

/** Runs a command in a pseudo-terminal: what it prints accumulates in `screen()`. */
function terminal(args: string[], env: Record<string, string>): Terminal {
  const command = [process.execPath, bin, ...args].map(shellQuote).join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], { env: { ...process.env, ...env, TERM: "dumb" }, stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  let screen = "";
  child.stdout?.setEncoding("utf8").on("data", (c: string) => (screen += c));
  child.stderr?.setEncoding("utf8").on("data", (c: string) => (screen += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    screen: () => screen,
    type: (keys) => void child.stdin?.write(keys),
    async waitFor(text, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!screen.includes(text)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`"${text}" never appeared; the screen was:\n${screen}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    exit: () => exited,
  };
}

describe("ovation chat in a terminal against ovation start", () => {
  const data = tempDataDir();
  let server: ChildProcess;
  let env: Record<string, string>;
  let token = "";

  beforeAll(async () => {
    const port = await freePort();
    env = { OVATION_DATA_DIR: data.dir, PORT: String(port), HOST: "127.0.0.1", OVATION_LOG_LEVEL: "silent" };
    server = spawn(process.execPath, [bin, "start"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(server);
    let out = "";
    server.stdout?.setEncoding("utf8").on("data", (c: string) => (out += c));
    const deadline = Date.now() + 90_000;
    while (!out.includes("Browser source")) {
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`ovation start failed: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    token = /keep it secret\):\s+(\S+)/.exec(out)?.[1] ?? "";
    expect(token).not.toBe("");
    // A second command, so the tests do not wait out the demo command's global cooldown.
    const created = await fetch(`http://127.0.0.1:${port}/v1/bots/@me/commands`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ command: "ping", response: "pong, {{ event.user.username }}!", command_aliases: [] }),
    });
    expect(created.status).toBeLessThan(300);
  }, 120_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    data.remove();
  });

  it("chats as a moderator viewer: a command typed in the terminal gets the bot's answer", { timeout: 120_000 }, async () => {
    const chat = terminal(["chat", "--as", "Alice", "--badge", "moderator"], { ...env, OVATION_TOKEN: token });
    await chat.waitFor("Chatting in streamer as Alice [moderator].");
    await chat.waitFor("Alice> ");
    chat.type("!hug Bob\r");
    await chat.waitFor("bot (reply): Alice sends a hug to Bob <3");
    chat.type("\u0004"); // Ctrl+D
    expect(await chat.exit()).toBe(0);
  });

  it("without a token, asks the running server for one through its admin socket", { timeout: 120_000 }, async () => {
    const chat = terminal(["chat"], env);
    await chat.waitFor("Chatting in streamer as streamer.");
    chat.type("!ping\r");
    await chat.waitFor("bot: pong, streamer!");
    chat.type("\u0004");
    expect(await chat.exit()).toBe(0);
  });

  it("explains a refused token and a bad option", { timeout: 120_000 }, async () => {
    const refused = terminal(["chat", "--token", "not-a-token"], env);
    expect(await refused.exit()).toBe(1);
    expect(refused.screen()).toContain("OVATION_ERR_REALTIME_UNAUTHENTICATED");
    const bad = terminal(["chat", "--badge", "king"], env);
    expect(await bad.exit()).toBe(2);
    expect(bad.screen()).toContain("--badge must be one of moderator, vip, subscriber, broadcaster (got king)");
  });
});
