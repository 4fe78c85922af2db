import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { io as connectSocket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, tempDataDir } from "../../__tests__/helpers.js";
import { callRunningServer } from "../../cli/admin-client.js";
import type { PersonalAccessTokenRecord } from "../../store/records.js";
import { readStoredData } from "../../store/store.js";

// `ovation start` and `ovation chat` as a person runs them: the built CLI, the chat in a
// pseudo-terminal (util-linux `script`), keystrokes in, the screen out.
const bin = fileURLToPath(new URL("../../../bin/ovation.mjs", import.meta.url));
const children: ChildProcess[] = [];

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

/** Whether a token opens the console namespace (the handshake `ovation chat` makes). */
async function opensConsole(url: string, token: string): Promise<boolean> {
  const socket = connectSocket(`${url}/console`, { auth: { token }, transports: ["websocket"], reconnection: false, timeout: 20_000 });
  try {
    return await new Promise<boolean>((resolve, reject) => {
      socket.once("connect", () => resolve(true));
      socket.once("connect_error", (error) => (/UNAUTHENTICATED/.test(error.message) ? resolve(false) : reject(error)));
    });
  } finally {
    socket.disconnect();
  }
}

describe("ovation chat in a terminal against ovation start", () => {
  const data = tempDataDir();
  let server: ChildProcess;
  let env: Record<string, string>;
  let url = "";
  let token = "";

  /** The "ovation chat" tokens in the store file that still authenticate (not revoked, not expired). */
  function liveChatTokens(): PersonalAccessTokenRecord[] {
    const store = readStoredData(data.dir);
    return store.personal_access_tokens.filter((t) => t.name === "ovation chat" && t.revoked_at === null && Date.parse(t.expires_at) > Date.now());
  }

  beforeAll(async () => {
    const port = await freePort();
    env = { OVATION_DATA_DIR: data.dir, PORT: String(port), HOST: "127.0.0.1", OVATION_LOG_LEVEL: "silent" };
    url = `http://127.0.0.1:${port}`;
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
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    const exited = Promise.all(running.map((child) => new Promise((resolve) => child.once("exit", resolve))));
    for (const child of running) child.kill("SIGTERM");
    // Up to 500 ms for a clean exit (the server usually takes less), then SIGKILL.
    await Promise.race([exited, new Promise((r) => setTimeout(r, 500))]);
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
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

  it("a chat session's own token is short-lived, replaces the earlier one and is revoked when the session ends", { timeout: 180_000 }, async () => {
    expect(liveChatTokens()).toEqual([]); // the previous test's session took its token with it
    // An earlier chat token (as a killed chat would leave behind) is replaced by the next session.
    const earlier = String(await callRunningServer(data.dir, { op: "chat.token.issue", user: "streamer" }));
    expect(await opensConsole(url, earlier)).toBe(true);
    expect(liveChatTokens()).toHaveLength(1);

    const first = terminal(["chat"], env);
    await first.waitFor("Chatting in streamer as streamer.");
    expect(await opensConsole(url, earlier)).toBe(false);
    const during = liveChatTokens();
    expect(during).toHaveLength(1);
    const [session] = during;
    expect(session?.scopes).toEqual(["chatbot:read"]);
    expect(Date.parse(session?.expires_at ?? "") - Date.parse(session?.created_at ?? "")).toBe(6 * 60 * 60 * 1000);
    expect(session?.token_hash).toMatch(/^[0-9a-f]{64}$/); // hashed at rest
    first.type("\u0004"); // Ctrl+D
    expect(await first.exit()).toBe(0);
    expect(liveChatTokens()).toEqual([]);

    // Ctrl+C ends a session too, and its token goes with it.
    const second = terminal(["chat"], env);
    await second.waitFor("streamer> ");
    expect(liveChatTokens()).toHaveLength(1);
    second.type("\u0003");
    await second.exit();
    expect(liveChatTokens()).toEqual([]);

    // SIGTERM to the chat process revokes its token before it exits.
    const third = terminal(["chat"], env);
    await third.waitFor("streamer> ");
    expect(liveChatTokens()).toHaveLength(1);
    third.child.kill("SIGTERM");
    await third.exit();
    const deadline = Date.now() + 20_000;
    while (liveChatTokens().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(liveChatTokens()).toEqual([]);
  });

  it("revokes only live chat tokens presented in full through the admin socket", { timeout: 60_000 }, async () => {
    expect(await callRunningServer(data.dir, { op: "chat.token.revoke", token })).toBe(false); // the first-run token is not a chat token
    expect(await opensConsole(url, token)).toBe(true);
    const chat = String(await callRunningServer(data.dir, { op: "chat.token.issue", user: "streamer" }));
    expect(await callRunningServer(data.dir, { op: "chat.token.revoke", token: `${chat.slice(0, -1)}${chat.endsWith("A") ? "B" : "A"}` })).toBe(false);
    expect(await opensConsole(url, chat)).toBe(true);
    expect(await callRunningServer(data.dir, { op: "chat.token.revoke", token: chat })).toBe(true);
    expect(await opensConsole(url, chat)).toBe(false);
    await expect(callRunningServer(data.dir, { op: "chat.token.issue", user: "nobody" })).rejects.toThrow("No user named nobody.");
  });

  it("explains a refused token and a bad option", { timeout: 120_000 }, async () => {
    // Two sessions of their own, side by side: neither changes what the other sees.
    const refused = terminal(["chat", "--token", "not-a-token"], env);
    const bad = terminal(["chat", "--badge", "king"], env);
    expect(await refused.exit()).toBe(1);
    expect(refused.screen()).toContain("OVATION_ERR_REALTIME_UNAUTHENTICATED");
    expect(await bad.exit()).toBe(2);
    expect(bad.screen()).toContain("--badge must be one of moderator, vip, subscriber, broadcaster (got king)");
  });
});
