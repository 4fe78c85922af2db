// Chat messages per second from raw Twitch IRC lines to validated chat events, beside tmi.js's own
// parse of the same lines (the floor: every Twitch client pays it). Target: normalization and
// validation add at most 1x on top of the parse. Runs for a few seconds; imports the built packages.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { compareRates, reportComparison } from "../../../scripts/bench-compare.js";
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
  // Announcements come as a USERNOTICE outcome that carries its chat event beside the notifications.
  const event = outcome?.kind === "chat" || outcome?.kind === "usernotice" ? outcome.event : null;
  if (event && chatEventSchema.safeParse(event).success) sink++;
}

// Sanity: every bench line must become a valid chat event, or the figure would flatter us.
const rounds = 9;
const result = compareRates(floor, ours, lines, rounds, (line) => {
  const before = sink;
  ours(line);
  return sink === before + 1;
});
const added = result.ratio - 1;
console.log(`lines: ${lines.length} distinct (fixtures + plain chatter); medians of ${rounds} alternating rounds`);
console.log(`normalization + validation add        ${added.toFixed(2)}x on top of the parse (target <= 1.00x) ${added <= 1 ? "OK" : "OVER"}`);
reportComparison("twitch.chat", { floor: "tmi.js parse alone (floor)", ours: "raw line -> validated chat event" }, result, 2);
if (sink < 0) console.log(sink);
