// Chat messages per second from raw Twitch IRC lines to validated chat events, beside tmi.js's own
// parse of the same lines (the floor: every Twitch client pays it). Target: normalization and
// validation add at most 1x on top of the parse. Runs for a few seconds; imports the built packages.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { chatEventSchema } from "@ovation/core";
import type { ChatChannel } from "@ovation/core";
import { GLOBAL_CHEERMOTE_PREFIXES, normalizeIrcMessage, parseIrcLine } from "@ovation/plugin-twitch";

const tmiParser = createRequire(import.meta.url)("tmi.js/lib/parser.js") as { msg(line: string): unknown };

const fixtures = JSON.parse(readFileSync(new URL("../../../fixtures/twitch/irc-lines.json", import.meta.url), "utf8")) as {
  lines: Record<string, string>;
};
// The chat lines of the fixtures (PRIVMSG and announcements of the served channel), plus plain
// chatter, which is most of real chat.
const chatLines = Object.values(fixtures.lines).filter((l) => / (PRIVMSG|USERNOTICE) #dallas /.test(l) && !l.includes("msg-id=resub"));
const plain = Array.from(
  { length: 8 },
  (_, i) =>
    `@badge-info=;badges=;client-nonce=abc${i};color=#FF69B4;display-name=Viewer${i};emotes=;first-msg=0;flags=;id=6c3b8f7e-0000-4000-8000-00000000000${i};mod=0;returning-chatter=0;room-id=12345678;subscriber=0;tmi-sent-ts=1700000000${i}00;turbo=0;user-id=10${i};user-type= :viewer${i}!viewer${i}@viewer${i}.tmi.twitch.tv PRIVMSG #dallas :hello chat, how is everyone doing today? message ${i}`,
);
const lines = [...chatLines, ...plain];

const dallas: ChatChannel = { id: "owner-1", platform_id: "12345678", username: "dallas", avatar_url: "" };
const context = { channel: (login: string) => (login === "dallas" ? dallas : null), cheerPrefixes: new Set(GLOBAL_CHEERMOTE_PREFIXES) };

let sink = 0;
function floor(line: string): void {
  if (tmiParser.msg(line)) sink++;
}
function ours(line: string): void {
  const message = parseIrcLine(line);
  if (!message) return;
  const outcome = normalizeIrcMessage(message, context);
  if (outcome?.kind === "chat" && chatEventSchema.safeParse(outcome.event).success) sink++;
}

// Sanity: every bench line must become a valid chat event, or the figure would flatter us.
for (const line of lines) {
  const before = sink;
  ours(line);
  if (sink !== before + 1) throw new Error(`bench line is not a valid chat event: ${line.slice(0, 80)}`);
}

function rate(fn: (line: string) => void, ms: number): number {
  const start = process.hrtime.bigint();
  let n = 0;
  const limit = BigInt(ms) * 1_000_000n;
  while (process.hrtime.bigint() - start < limit) {
    for (let i = 0; i < 1000; i++) fn(lines[(n + i) % lines.length] as string);
    n += 1000;
  }
  return (n * 1e9) / Number(process.hrtime.bigint() - start);
}

rate(floor, 300);
rate(ours, 300);
// The machine is shared: rounds alternate, and the ratio is taken per round (both sides of a round
// see the same load), then the median over rounds.
const rounds = 9;
const floorRates: number[] = [];
const ourRates: number[] = [];
const ratios: number[] = [];
for (let round = 0; round < rounds; round++) {
  const f = rate(floor, 150);
  const o = rate(ours, 150);
  floorRates.push(f);
  ourRates.push(o);
  ratios.push(f / o - 1);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const added = median(ratios);
const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");
console.log(`lines: ${lines.length} distinct (fixtures + plain chatter); medians of ${rounds} alternating rounds`);
console.log(`tmi.js parse alone (floor)            ${fmt(median(floorRates)).padStart(12)} msg/s`);
console.log(`raw line -> validated chat event      ${fmt(median(ourRates)).padStart(12)} msg/s`);
console.log(`normalization + validation add        ${added.toFixed(2)}x on top of the parse (target <= 1.00x) ${added <= 1 ? "OK" : "OVER"}`);
if (sink < 0) console.log(sink);
