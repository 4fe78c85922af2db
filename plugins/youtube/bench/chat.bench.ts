// Chat messages per second from raw liveChatMessage JSON (as one item of a liveChatMessages.list
// page) to validated chat events, beside a bare JSON.parse of the same text (the floor: every
// client of the Data API pays it). Runs for a few seconds; imports the built packages.
import { readFileSync } from "node:fs";
import { chatEventSchema } from "@ovation/core";
import type { ChatChannel } from "@ovation/core";
import { mapLiveChatMessage } from "@ovation/plugin-youtube";

const fixtures = JSON.parse(readFileSync(new URL("../../../fixtures/youtube/live-chat-messages.json", import.meta.url), "utf8")) as {
  messages: Record<string, { snippet: { type: string } }>;
};
// The text messages of the fixtures plus plain chatter, which is most of real chat.
const textMessages = Object.values(fixtures.messages).filter((m) => m.snippet.type === "textMessageEvent");
const plain = Array.from({ length: 8 }, (_, i) => ({
  kind: "youtube#liveChatMessage",
  etag: `etag-${i}`,
  id: `LCC.bench-${i}`,
  snippet: {
    type: "textMessageEvent",
    liveChatId: "Cg0KC2Z1bl9icm9hZGNhc3Q",
    authorChannelId: `UCviewer00000000000000${i}`,
    publishedAt: `2026-11-23T15:00:0${i}.000000+00:00`,
    hasDisplayContent: true,
    displayMessage: `hello chat, how is everyone doing today? message ${i}`,
    textMessageDetails: { messageText: `hello chat, how is everyone doing today? message ${i}` },
  },
  authorDetails: {
    channelId: `UCviewer00000000000000${i}`,
    channelUrl: `http://www.youtube.com/channel/UCviewer00000000000000${i}`,
    displayName: `Viewer${i}`,
    profileImageUrl: `https://yt3.ggpht.example/v${i}=s88`,
    isVerified: false,
    isChatOwner: false,
    isChatSponsor: i % 3 === 0,
    isChatModerator: false,
  },
}));
const lines = [...textMessages, ...plain].map((m) => JSON.stringify(m));

const channel: ChatChannel = { id: "1", platform_id: "UCowner00000000000000000", username: "FunStreamer", avatar_url: "" };

let sink = 0;
function floor(line: string): void {
  if (JSON.parse(line)) sink++;
}
function ours(line: string): void {
  const outcome = mapLiveChatMessage(JSON.parse(line), channel);
  if (outcome.kind === "chat" && chatEventSchema.safeParse(outcome.event).success) sink++;
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
  ratios.push(f / o);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");
console.log(`messages: ${lines.length} distinct (fixtures + plain chatter); medians of ${rounds} alternating rounds`);
console.log(`JSON.parse alone (floor)                 ${fmt(median(floorRates)).padStart(12)} msg/s`);
console.log(`raw JSON -> validated chat event         ${fmt(median(ourRates)).padStart(12)} msg/s`);
console.log(`ratio (floor / ours)                     ${median(ratios).toFixed(2)}x slower than the bare parse`);
if (sink < 0) console.log(sink);
