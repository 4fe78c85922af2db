// A child of channels-per-node.bench.ts: either one Ovation node serving linked Kick channels in
// pusher mode (`ovation`: one chat socket per channel to the fake Kick's Pusher), or bare `ws`
// WebSocket clients (Node's own) holding the same sockets (`bare`: connect, subscribe the
// chatroom, answer pings).
// Told over IPC to serve N more channels, and to measure its heap (after GC) and CPU while idle.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { buildApp, loadConfig } from "@ovation/server";

type Message =
  | { type: "serve"; accounts: Array<{ user_id: number; name: string; refreshToken: string }> }
  | { type: "measure"; idleMs: number }
  | { type: "stop" };

const env = process.env;
const gc = (globalThis as { gc?: () => void }).gc;
const send = (m: Record<string, unknown>) => process.send?.(m);

async function measure(idleMs: number): Promise<{ heapUsed: number; rss: number; cpuMicros: number; idleMs: number }> {
  gc?.();
  gc?.();
  const before = process.cpuUsage();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, idleMs));
  const cpu = process.cpuUsage(before);
  const elapsed = performance.now() - started;
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss, cpuMicros: cpu.user + cpu.system, idleMs: elapsed };
}

async function ovation(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ovation-bench-channels-"));
  const config = loadConfig({ OVATION_DATA_DIR: dir, HOST: "127.0.0.1", PORT: "0", OVATION_LOG_LEVEL: "silent", OVATION_PUBLIC_URL: "http://127.0.0.1:8080" });
  const app = await buildApp({
    config,
    logger: pino({ level: "silent" }),
    platforms: {
      env: {
        OVATION_PLUGINS: "kick",
        OVATION_KICK_CLIENT_ID: env["BENCH_KICK_CLIENT_ID"] ?? "",
        OVATION_KICK_CLIENT_SECRET: env["BENCH_KICK_CLIENT_SECRET"] ?? "",
        OVATION_KICK_API_URL: env["BENCH_KICK_API_URL"] ?? "",
        OVATION_KICK_TOKEN_URL: env["BENCH_KICK_TOKEN_URL"] ?? "",
        OVATION_KICK_MODE: "pusher",
        OVATION_KICK_CHATROOM_ID: "1",
        OVATION_KICK_PUSHER_URL: env["BENCH_PUSHER_URL"] ?? "",
      },
    },
  });
  await app.ready();
  const { repos } = app.ovation;
  const serving = () => app.platformPlugins.channelStatus("kick").filter((c) => c.state === "serving").length;
  const settled = () => app.platformPlugins.channelStatus("kick").filter((c) => c.state !== "starting").length;
  // BENCH_PROGRESS=1: the channels' states every 5 s while bringing them up (diagnosis of a slow side).
  if (env["BENCH_PROGRESS"]) {
    const started = Date.now();
    setInterval(() => {
      const states: Record<string, number> = {};
      for (const c of app.platformPlugins.channelStatus("kick")) states[`${c.state}${c.detail ? `: ${c.detail.slice(0, 50)}` : ""}`] = (states[`${c.state}${c.detail ? `: ${c.detail.slice(0, 50)}` : ""}`] ?? 0) + 1;
      console.error(`[ovation child ${((Date.now() - started) / 1000).toFixed(0)} s] ${JSON.stringify(states)}`);
    }, 5_000).unref();
  }
  process.on("message", (m: Message) => {
    if (m.type === "serve") {
      void (async () => {
        const cpu = process.cpuUsage();
        const target = serving() + m.accounts.length;
        // In batches, as streamers link over time (each link is served at once).
        for (let i = 0; i < m.accounts.length; i += 200) {
          for (const account of m.accounts.slice(i, i + 200)) {
            const user = repos.users.create({ name: `s${account.user_id}`, email: null });
            const link = repos.connections.upsert({ user_id: user.id, platform: "kick", platform_user_id: String(account.user_id), username: account.name });
            repos.connections.saveTokens(link.id, { access_token: null, refresh_token: account.refreshToken, expires_at: 0, scopes: ["user:read", "channel:read", "chat:write", "events:subscribe"] });
          }
          // Until every channel of the batch is settled (served, or refused: a refused one would hold
          // every later batch to the deadline), checked every 200 ms; at most 2 minutes a batch.
          const deadline = Date.now() + 120_000;
          while (settled() < Math.min(target, target - m.accounts.length + i + 200) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
        }
        const used = process.cpuUsage(cpu);
        // What the channels not served show (why they were refused), by state and detail.
        const refused: Record<string, number> = {};
        for (const c of app.platformPlugins.channelStatus("kick")) if (c.state !== "serving") refused[`${c.state}: ${(c.detail ?? "").slice(0, 80)}`] = (refused[`${c.state}: ${(c.detail ?? "").slice(0, 80)}`] ?? 0) + 1;
        send({ type: "served", serving: serving(), cpuMicros: used.user + used.system, refused });
      })();
    }
    if (m.type === "measure") void measure(m.idleMs).then((r) => send({ type: "measured", ...r, serving: serving() }));
    if (m.type === "stop") void app.close().then(() => (rmSync(dir, { recursive: true, force: true }), process.exit(0)));
  });
  send({ type: "ready" });
}

async function bare(): Promise<void> {
  const url = env["BENCH_PUSHER_URL"] ?? "";
  const sockets: WebSocket[] = [];
  let open = 0;
  const connect = () =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(url);
      sockets.push(ws);
      ws.addEventListener("message", (event: MessageEvent) => {
        const frame = JSON.parse(String(event.data)) as { event?: string };
        if (frame.event === "pusher:connection_established") ws.send(JSON.stringify({ event: "pusher:subscribe", data: { auth: "", channel: "chatrooms.1.v2" } }));
        else if (frame.event === "pusher_internal:subscription_succeeded") {
          open++;
          resolve();
        } else if (frame.event === "pusher:ping") ws.send(JSON.stringify({ event: "pusher:pong", data: {} }));
      });
      ws.addEventListener("error", () => resolve());
    });
  process.on("message", (m: Message) => {
    if (m.type === "serve") {
      void (async () => {
        const cpu = process.cpuUsage();
        for (let i = 0; i < m.accounts.length; i += 200) await Promise.all(m.accounts.slice(i, i + 200).map(() => connect()));
        const used = process.cpuUsage(cpu);
        send({ type: "served", serving: open, cpuMicros: used.user + used.system });
      })();
    }
    if (m.type === "measure") void measure(m.idleMs).then((r) => send({ type: "measured", ...r, serving: open }));
    if (m.type === "stop") {
      for (const ws of sockets) ws.close();
      process.exit(0);
    }
  });
  send({ type: "ready" });
}

await (process.argv[2] === "bare" ? bare() : ovation());
