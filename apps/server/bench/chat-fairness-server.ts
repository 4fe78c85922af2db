// A server process for chat-fairness.bench.ts: Ovation on a fresh embedded store with a quiet user
// (who POSTs alerts) and a noisy user whose chat carries the attack sizes of issue 31. On request it
// runs a noisy chat loop of one kind (4 loops, BENCH_CHAT_RATE messages a second in all, 400 by
// default: a very busy channel; chat arrives from platform plugins one message per event): `regex` (20 regex commands at the save limits, 500-char
// lines starting with `!`), `patterns` (50 moderation patterns at the save limits, 500-char lines),
// `words` (a 1,000-phrase bad-word list, 250-word lines). Reports over IPC.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { CHAT_PATTERN_LIMITS, CommandRegex, buildDefaultAlertSet } from "@ovation/core";
import type { ChatEvent } from "@ovation/core";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";

type Kind = "regex" | "patterns" | "words";
type Message = { type: "noise"; kind: Kind | null } | { type: "stop" };

const dir = mkdtempSync(join(tmpdir(), "ovation-chat-bench-"));
const config = loadConfig({ OVATION_DATA_DIR: dir, HOST: "127.0.0.1", PORT: "0", OVATION_RATE_LIMIT_PER_MINUTE: "100000000", OVATION_LOG_LEVEL: "silent" });
const app = await buildApp({ config, logger: pino({ level: "silent" }) });
const { repos, botModules, commands } = app.ovation;

const quietUser = repos.users.create({ name: "quiet" });
const { id: _i, user_id: _u, active: _a, ...set } = buildDefaultAlertSet({ id: 1, user_id: quietUser.id });
repos.alertSets.create({ user_id: quietUser.id, name: "bench", version: 4, config: set });
const quietToken = repos.tokens.create({ user_id: quietUser.id, name: "bench", scopes: ["alerts:manage"] }).token;
const noisy = repos.users.create({ name: "noisy" });

// The heaviest regexes the save limits let through: 20 commands sharing the channel's 4,000
// instructions (each about 190), patterns that keep many RE2 threads alive on every character.
const perCommand = Math.floor(CHAT_PATTERN_LIMITS.commandProgramTotal / CHAT_PATTERN_LIMITS.regexCommands);
const heavy = (i: number, size: number) => {
  for (let n = 100; n > 1; n--) {
    const source = `(\\w|\\W){1,${n}}${i}$`;
    if (CommandRegex.compile(source).programSize <= size) return source;
  }
  return `(\\w|\\W){1,2}${i}$`;
};
for (let i = 0; i < CHAT_PATTERN_LIMITS.regexCommands; i++) {
  repos.commands.create(noisy.id, { command: `heavy${i}`, command_aliases: [], response: "x", command_regex: heavy(i, perCommand), permissions: 0, price: 0, send_as: "say", enable_when: "both", user_cooldown: 0, global_cooldown: 0, is_visible: true });
}
commands.reload(noisy.id);
const loaded = commands.runtime.commands(String(noisy.id)).length;

const words = ["go", "away", "you", "big", "silly", "fool", "nose", "darn", "heck", "cr4p", "sh00t", "dummy", "loser", "lame", "noob", "stop", "it", "now"];
const phrases = Array.from({ length: 1_000 }, (_, i) => `${words[i % words.length]} ${words[(i * 7 + 3) % words.length]} w${i}`);
const moderation = {
  patterns: { bad_words: { enabled: true, patterns: Array.from({ length: 50 }, (_, i) => heavy(i, CHAT_PATTERN_LIMITS.moderationProgramTotal / 50)) } },
  words: { bad_words: { enabled: true, words: phrases } },
};

let counter = 0;
function event(message: string): ChatEvent {
  counter++;
  return {
    id: `m-${counter}`,
    type: "message",
    timestamp: Date.now(),
    platform: "twitch",
    user: { platform_id: `viewer-${counter % 50}`, username: "viewer", avatar_url: "", color: null, badges: [] },
    channel: { id: String(noisy.id), platform_id: "1", username: "noisy", avatar_url: "" },
    message,
    fragments: [{ type: "text", text: message }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}
const lines: Record<Kind, string> = {
  regex: `!${"ab c ".repeat(100)}`.slice(0, 500),
  patterns: `${"ab c ".repeat(100)}`.slice(0, 500),
  words: Array.from({ length: 250 }, (_, i) => words[(i * 5) % words.length]).join(" "),
};

const RATE = Number(process.env["BENCH_CHAT_RATE"] ?? 400);
let noise: Kind | null = null;
let handled = 0;
async function loop(kind: Kind): Promise<void> {
  while (noise === kind) {
    await botModules.handleChat(event(lines[kind]), "console");
    handled++;
    await sleep(4_000 / RATE);
  }
}

await app.listen({ port: 0, host: "127.0.0.1" });
const { port } = app.server.address() as AddressInfo;
process.on("message", (m: Message) => {
  if (m.type === "noise") {
    const before = { handled, cuts: commands.chatBudget.cuts };
    noise = m.kind;
    handled = 0;
    if (m.kind === "patterns" || m.kind === "words") botModules.setModeration(noisy.id, moderation[m.kind]);
    if (m.kind === "regex") botModules.setModeration(noisy.id, {});
    if (m.kind) for (let i = 0; i < 4; i++) void loop(m.kind);
    process.send?.({ type: "noise", handled: before.handled, cuts: before.cuts });
  }
  if (m.type === "stop") void app.close().then(() => (rmSync(dir, { recursive: true, force: true }), process.exit(0)));
});
process.send?.({ type: "ready", port, token: quietToken, regexCommands: loaded });
