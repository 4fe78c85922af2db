// One node, the Twitch fake, 1,000 linked channels served by one bot account (plugin API 1.1):
// time to join them all beside the join-rate floor, heap per served channel, chat throughput across
// the channels, and the answer p99 at 100 msg/s spread over them. The bot runtime here answers
// every `!hug` at once (the template engine's own cost is in the server's latency bench), so the
// figures are those of the plugin, the host and the IRC path. Imports the built packages.
import { PluginHost } from "@ovation/core/plugins";
import { TwitchPlugin } from "@ovation/plugin-twitch";
import { FakeIrcServer, privmsgLine } from "@ovation/plugin-twitch/testing";
import { pino } from "pino";

const CHANNELS = Number(process.env.BENCH_CHANNELS ?? 1000);
/** Joins per 10 s: 500 keeps the run short with a visible floor (Twitch: 20 normal, 2,000 verified bot). */
const JOINS = Number(process.env.BENCH_JOINS_PER_10S ?? 500);
const RATE = 100;
const SECONDS = 10;

const logins = Array.from({ length: CHANNELS }, (_, i) => `streamer${i}`);
const rooms = Object.fromEntries(logins.map((login, i) => [login, String(100000 + i)]));
const irc = await FakeIrcServer.start(rooms);
irc.replayOnJoin = 0;
let received = 0;
const host = new PluginHost({
  logger: pino({ level: "silent" }),
  runtime: (event) => {
    received++;
    return event.message.startsWith("!hug") ? [{ text: `${event.user.username} sends a hug <3`, send_as: "reply" }] : [];
  },
});
const plugin = new TwitchPlugin({
  username: "ovationbot",
  token: "oauth:bench-token",
  irc: { server: "127.0.0.1", port: irc.port, secure: false },
  joinsPer10s: JOINS,
  joinTimeoutMs: 600_000,
});
host.register(plugin);
await host.connect("twitch");

const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
await Promise.all(
  logins.map((login, i) =>
    host.serveChannel("twitch", { id: String(i + 1), connection_id: i + 1, platform_user_id: rooms[login] ?? "", username: login, avatar_url: "", scopes: [] }),
  ),
);
const joinedMs = performance.now() - started;
const serving = host.channelStatus("twitch").filter((c) => c.state === "serving").length;
gc?.();
const heapPerChannel = (process.memoryUsage().heapUsed - heapBefore) / CHANNELS;
const floorS = (Math.ceil(CHANNELS / JOINS) - 1) * 10;
console.log(`${CHANNELS} channels: ${serving} serving after ${(joinedMs / 1000).toFixed(1)} s (join-rate floor ${floorS} s at ${JOINS} joins/10 s; a normal bot account, 20/10 s, has a floor of ${(Math.ceil(CHANNELS / 20) - 1) * 10} s)`);
console.log(`heap per served channel: ${(heapPerChannel / 1024).toFixed(1)} KiB`);

// Throughput: chatter spread over every channel as fast as the fake can send it.
const burst = 20_000;
received = 0;
const t0 = performance.now();
for (let i = 0; i < burst; i++) {
  const login = logins[i % CHANNELS] ?? "";
  irc.publish(login, privmsgLine(login, rooms[login] ?? "", `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, `hello chat ${i}`));
}
while (received < burst && performance.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 5));
const throughput = received / ((performance.now() - t0) / 1000);
console.log(`chat throughput across ${CHANNELS} channels: ${Math.round(throughput)} msg/s (${received} of ${burst} within 60 s)`);

// Answer latency: `!hug` at 100 msg/s spread over the channels, from the fake sending it to the fake receiving the answer.
const sentAt = new Map<string, number>();
const latencies: number[] = [];
irc.onLine = (line) => {
  const id = /^@reply-parent-msg-id=([^ ]+) PRIVMSG/.exec(line)?.[1];
  const at = id ? sentAt.get(id) : undefined;
  if (id && at !== undefined) {
    latencies.push(performance.now() - at);
    sentAt.delete(id);
  }
};
const total = RATE * SECONDS;
const begin = performance.now();
for (let i = 0; i < total; i++) {
  const due = begin + (i * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const login = logins[(i * 7) % CHANNELS] ?? "";
  const id = `11111111-0000-4000-8000-${String(i).padStart(12, "0")}`;
  sentAt.set(id, performance.now());
  irc.publish(login, privmsgLine(login, rooms[login] ?? "", id, `!hug friend${i}`));
}
const end = performance.now() + 10_000;
while (latencies.length < total && performance.now() < end) await new Promise((r) => setTimeout(r, 10));
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN;
console.log(`answers at ${RATE} msg/s over ${CHANNELS} channels: ${latencies.length}/${total} answered, p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms`);

await host.stop();
await irc.close();
