// Messages per second through the bot command runtime, side by side in one run:
//   (a) non-command chat, (b) plain-text commands, (c) template commands in the sandbox,
//   (d) the same templates rendered by bare nunjucks (no sandbox; (d') also with 64 messages in flight
//   as (c) runs, for comparison only), (e) templates calling proxy_pass
//   against a loopback receiver, beside its floor: a bare undici POST of the same body to the same
//   receiver; then the event loop's p99 delay while the hostile template corpus runs beside ordinary
//   traffic; then (f) fair scheduling: a quiet channel's `!hug` latency alone and beside a noisy
//   channel running 4 loops of timeout bombs (issue 10: p50 went from 7 ms to 207 ms).
// Each figure is the median of BENCH_ROUNDS (default 5) alternating rounds of ours and its reference
// (c with d, e with its floor), printed with min and max; the targets are ratios to the reference
// of the same round: c/d >= 0.5 per CPU second, e/floor >= 0.5; and e >= 5,000/s on the 2-core
// machine. (a) >= 1,000,000/s has no reference (nothing else does that work); (b) >= 200,000/s is kept and
// (b) also runs beside its floor (b0): the same messages validated with the same schema and answered
// from a Map by a bare bot (BarePlainBot), so b/b0 is a ratio measured in the same rounds.
// p99 < 10 ms; (f) quiet p99 beside the noisy channel < 4x its p99 alone + one time limit (50 ms).
// Run: npm run bench -- commands   (builds first; Node needs --no-node-snapshot for isolated-vm).
// BENCH_SECTIONS=cd,e runs only those sections (ab, cd, e, hostile, fair); all by default. The hostile
// corpus alternates with ordinary traffic alone, and (f) beside the bombs with (f) alone.
import { readdirSync, readFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import nunjucks from "nunjucks";
import { request } from "undici";
import { alternate, benchRounds, ratiosOf, report, spreadOf } from "../../../scripts/bench-figures.js";
import {
  chatEventSchema,
  CommandRuntime,
  GuardedHttpClient,
  InMemoryKeyValueStore,
  TemplateSandbox,
  type BotCommandInput,
  type ChatEvent,
  type CommandRenderer,
  type CommandTemplateVariables,
} from "@ovation/core";

/**
 * The proxy_pass receiver: answers every POST with text/plain and keeps the last body it got, which
 * `GET /last` returns (the floor POSTs exactly the body proxy_pass sent). Prints its port.
 */
const RECEIVER = `
let last = "";
const server = require("node:http").createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    if (req.method === "GET") return res.writeHead(200, { "content-type": "application/json" }).end(last);
    last = Buffer.concat(chunks).toString();
    res.writeHead(200, { "content-type": "text/plain" }).end("points: 42");
  });
});
server.keepAliveTimeout = 10000;
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
`;

/** Length of one round of one side. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
const ROUNDS = benchRounds();
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? "ab,cd,e,hostile,fair").split(","));
const CHANNEL = "bench-channel";

function event(i: number, message: string, badges: string[] = []): ChatEvent {
  return {
    id: `m${i}`,
    type: "message",
    timestamp: 1_700_000_000_000 + i,
    platform: "twitch",
    user: {
      platform_id: `u${i % 500}`,
      username: `viewer${i % 500}`,
      avatar_url: "https://example.com/a.png",
      color: null,
      badges: badges.map((type) => ({ type, text: null, id: `${type}/1`, count: type === "subscriber" ? 3 : null })),
    },
    channel: { id: CHANNEL, platform_id: "106415581", username: "streamer", avatar_url: "https://example.com/s.png" },
    message,
    fragments: [{ type: "text", text: message }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}

const CHAT = ["hello everyone", "LUL", "what game is this?", "gg", "nice play!", "@streamer hi", "PogChamp PogChamp", "first time here"];
const chatEvents = Array.from({ length: 1024 }, (_, i) => event(i, CHAT[i % CHAT.length] as string));

const plainCommands: BotCommandInput[] = [
  { command: "discord", response: "Join us: https://discord.example/abc", global_cooldown: 0 },
  { command: "socials", command_aliases: ["twitter"], response: "Follow on all the platforms!", global_cooldown: 0 },
  { command: "lurk", response: "Thanks for lurking!", global_cooldown: 0, send_as: "reply" },
];
const plainEvents = Array.from({ length: 1024 }, (_, i) => event(i, ["!discord", "!Socials", "!twitter now", "!lurk"][i % 4] as string));

// Templates valid both in the Twig-syntax sandbox and in bare nunjucks (random() is a global in (d)).
const templateCommands: BotCommandInput[] = [
  { command: "dice", response: "{% set number = random(1, 6) %}{% if number == 6 %}You rolled a lucky 6 today!{% else %}You rolled {{ number }}!{% endif %}", global_cooldown: 0 },
  { command: "8ball", response: '{% set answers = ["Yes", "No", "Maybe", "Ask again later"] %}{{ random(answers) }}', global_cooldown: 0 },
  { command: "hug", response: '{% set target = args[1] %}{% if target %}{{ event.user.username }} sends a hug to {{ target }} <3{% else %}Use "!hug <username>" to send a hug!{% endif %}', global_cooldown: 0 },
  { command: "badges", response: "{{ event.user.username }} has {{ event.user.badges | length }} badges{% for b in event.user.badges %} {{ b.type }}{% endfor %}", global_cooldown: 0 },
];
const templateEvents = Array.from({ length: 1024 }, (_, i) => event(i, ["!dice", "!8ball will it work?", "!hug bob", "!hug", "!badges"][i % 5] as string, i % 3 === 0 ? ["subscriber", "vip"] : []));

/** Bare nunjucks, no sandbox: what (c) is compared with. */
class NunjucksRenderer implements CommandRenderer {
  readonly #env = new nunjucks.Environment(null, { autoescape: false });
  constructor() {
    this.#env.addGlobal("random", (a: unknown, b?: unknown) => {
      if (Array.isArray(a)) return a[Math.floor(Math.random() * a.length)];
      const min = Number(a);
      const max = Number(b);
      return min + Math.floor(Math.random() * (max - min + 1));
    });
  }
  isPlainText(source: string): boolean {
    return !/\{[{%#]/.test(source);
  }
  compile(source: string): unknown {
    return new nunjucks.Template(source, this.#env, undefined, true);
  }
  async render(compiled: unknown, variables: CommandTemplateVariables): Promise<string> {
    return (compiled as nunjucks.Template).render(variables as unknown as object);
  }
}

/**
 * The floor of (b): what any bot does for a plain-text command, without the runtime. Each message
 * is validated with the same chat-event schema (a bot must not trust its input), its command word
 * is looked up in a Map of names, the global cooldown is checked and taken in a Map, and the
 * answer is built; one awaited call per message, as (b). No permissions, `enable_when`, user
 * cooldowns, price or budgets: those are what the runtime adds.
 */
class BarePlainBot {
  readonly #answers = new Map<string, { text: string; send_as: string }>();
  readonly #lastUse = new Map<string, number>();
  readonly #cooldowns = new Map<string, number>();
  constructor(commands: readonly BotCommandInput[]) {
    for (const command of commands) {
      const answer = { text: command.response.trim(), send_as: command.send_as ?? "say" };
      for (const name of [command.command, ...(command.command_aliases ?? [])]) {
        this.#answers.set(name.toLowerCase(), answer);
        this.#cooldowns.set(name.toLowerCase(), command.global_cooldown ?? 0);
      }
    }
  }
  async handle(input: unknown): Promise<{ channel: ChatEvent["channel"]; text: string; send_as: string; reply_to: string | null } | null> {
    const parsed = chatEventSchema.safeParse(input);
    if (!parsed.success) throw new Error("invalid chat event");
    const event = parsed.data;
    if (!event.message.startsWith("!")) return null;
    const word = event.message.slice(1).split(/\s/, 1)[0]?.toLowerCase() ?? "";
    const answer = this.#answers.get(word);
    if (answer === undefined) return null;
    const key = `${event.channel.id}\u0000${word}`;
    const now = Date.now();
    const last = this.#lastUse.get(key);
    if (last !== undefined && now - last < (this.#cooldowns.get(word) ?? 0) * 1000) return null;
    this.#lastUse.set(key, now);
    return { channel: event.channel, text: answer.text, send_as: answer.send_as, reply_to: answer.send_as === "reply" ? event.id : null };
  }
}

const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** CPU seconds used so far by this process and by the sandbox child process (when it runs). */
function cpuSeconds(sandboxPid: number | undefined): number {
  const own = process.cpuUsage();
  let child = 0;
  if (sandboxPid !== undefined) {
    try {
      const stat = readFileSync(`/proc/${sandboxPid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      child = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
      child = 0;
    }
  }
  return (own.user + own.system) / 1e6 + child;
}

/** A figure: messages per wall-clock second, and per CPU second of the runtime (+ sandbox) processes. */
interface Figure {
  wall: number;
  cpu: number;
  /** Messages of the round. */
  sent: number;
  /** CPU microseconds per message by thread group (Linux), when the sandbox took part. */
  threads?: Threads;
}

/** CPU seconds so far of each thread group of this process and the sandbox process. */
interface Threads {
  hostMain: number;
  hostOther: number;
  sandboxMain: number;
  sandboxOther: number;
}

/** Per thread group: a process's main thread (tid = pid) and its other threads (isolates, GC, libuv). */
function threadSeconds(pid: number): { main: number; other: number } {
  const out = { main: 0, other: 0 };
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const seconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
      if (Number(tid) === pid) out.main += seconds;
      else out.other += seconds;
    }
  } catch {
    // not Linux, or the process ended: no breakdown
  }
  return out;
}

function threadsNow(sandboxPid: number): Threads {
  const host = threadSeconds(process.pid);
  const sandbox = threadSeconds(sandboxPid);
  return { hostMain: host.main, hostOther: host.other, sandboxMain: sandbox.main, sandboxOther: sandbox.other };
}

/** Pushes `events` through `runtime` for one round (SECONDS) with `concurrency` messages in flight. */
async function measure(
  runtime: { handle(input: unknown): Promise<unknown> },
  events: readonly ChatEvent[],
  concurrency: number,
  expectAnswers: boolean,
  sandboxPid: () => number | undefined = () => undefined,
): Promise<Figure> {
  let sent = 0;
  let answered = 0;
  const until = performance.now() + SECONDS * 1000;
  const start = performance.now();
  const cpuStart = cpuSeconds(sandboxPid());
  const pidAtStart = sandboxPid();
  const threadsStart = pidAtStart === undefined ? null : threadsNow(pidAtStart);
  let i = 0;
  const next = () => events[i++ & 1023] as ChatEvent;
  if (concurrency === 1) {
    while (performance.now() < until) {
      for (let k = 0; k < 4096; k++) {
        if ((await runtime.handle(next())) !== null) answered++;
      }
      sent += 4096;
    }
  } else {
    const worker = async () => {
      while (performance.now() < until) {
        const answer = await runtime.handle(next());
        sent++;
        if (answer !== null) answered++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
  const elapsed = (performance.now() - start) / 1000;
  const cpu = cpuSeconds(sandboxPid()) - cpuStart;
  if (expectAnswers && answered !== sent) throw new Error(`only ${answered} of ${sent} messages were answered`);
  if (!expectAnswers && answered !== 0) throw new Error(`${answered} non-commands were answered`);
  let threads: Threads | undefined;
  if (threadsStart !== null && pidAtStart === sandboxPid()) {
    const end = threadsNow(pidAtStart as number);
    const per = (key: keyof Threads) => ((end[key] - threadsStart[key]) * 1e6) / sent;
    threads = { hostMain: per("hostMain"), hostOther: per("hostOther"), sandboxMain: per("sandboxMain"), sandboxOther: per("sandboxOther") };
  }
  return { wall: sent / elapsed, cpu: sent / cpu, sent, ...(threads ? { threads } : {}) };
}

/**
 * The floor of (e): a bare undici POST of `body` (what proxy_pass sent) to the same receiver, with
 * the same number in flight, for one round. CPU is this process's only (there is no sandbox).
 */
async function measureFloor(url: string, body: string, concurrency: number): Promise<Figure> {
  let sent = 0;
  const until = performance.now() + SECONDS * 1000;
  const start = performance.now();
  const cpuStart = cpuSeconds(undefined);
  const worker = async () => {
    while (performance.now() < until) {
      const res = await request(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/plain" }, body });
      if ((await res.body.text()) !== "points: 42" || res.statusCode !== 200) throw new Error("the receiver answered something else");
      sent++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - start) / 1000;
  return { wall: sent / elapsed, cpu: sent / (cpuSeconds(undefined) - cpuStart), sent };
}

/** Reports per-round figures of one side: wall rate, and rate per CPU second. */
function reportSide(id: string, label: string, figures: readonly Figure[], target?: number): void {
  report({ id: `commands.${id}`, label, unit: "msg/s", rounds: figures.length, value: spreadOf(figures.map((f) => f.wall)), better: "higher", ...(target === undefined ? {} : { target: { op: ">=", value: target } }) });
  report({ id: `commands.${id}.cpu`, label: "    per CPU second", unit: "msg/CPU-s", rounds: figures.length, value: spreadOf(figures.map((f) => f.cpu)), better: "higher" });
}

/** Reports the per-round ratio ours/reference, wall and per CPU second. */
function reportRatio(id: string, label: string, ours: readonly Figure[], reference: readonly Figure[], target: { wall?: number; cpu?: number }): void {
  const ratio = (pick: (f: Figure) => number) => spreadOf(ratiosOf(ours.map(pick), reference.map(pick)));
  const t = (value: number | undefined) => (value === undefined ? {} : { target: { op: ">=" as const, value } });
  report({ id: `commands.${id}.wall`, label: `${label}, wall clock`, unit: "x", rounds: ours.length, value: ratio((f) => f.wall), better: "higher", ...t(target.wall) });
  report({ id: `commands.${id}.cpu`, label: `${label}, per CPU second`, unit: "x", rounds: ours.length, value: ratio((f) => f.cpu), better: "higher", ...t(target.cpu) });
}

/**
 * Where a sandboxed message's CPU goes (median µs per message over the rounds, Linux): the runtime
 * process's main thread (beside the reference's whole cost per message), its other threads (GC,
 * libuv), the sandbox process's main thread (pipe, batches, copies into and out of the isolates)
 * and its other threads (the isolates rendering, V8's helpers).
 */
function reportThreads(id: string, ours: readonly Figure[], reference: readonly Figure[]): void {
  const rounds = ours.map((f) => f.threads).filter((t): t is Threads => t !== undefined);
  if (rounds.length === 0 || rounds.length < ours.length) return;
  const referenceMicros = spreadOf(reference.map((f) => 1e6 / f.cpu)).median;
  console.log(`    where (${id})'s CPU goes, µs per message; the reference costs ${referenceMicros.toFixed(1)} µs per message in all:`);
  const parts: Array<[keyof Threads, string]> = [
    ["hostMain", "runtime process, main thread"],
    ["hostOther", "runtime process, other threads (GC, libuv)"],
    ["sandboxMain", "sandbox process, main thread (pipe, batches, copies)"],
    ["sandboxOther", "sandbox process, isolate threads and V8 helpers"],
  ];
  for (const [key, label] of parts) {
    report({ id: `commands.${id}.threads.${key}`, label: `      ${label}`, unit: "µs", rounds: rounds.length, value: spreadOf(rounds.map((t) => t[key])), better: "lower" });
  }
}

async function main(): Promise<void> {
  const load = () => loadavg().map((n) => n.toFixed(1)).join(" ");
  // The figures are for the whole process on a shared machine: a load average above the CPU count
  // means other work took part of this process's core.
  console.log(`commands.bench: ${ROUNDS} alternating rounds of ${SECONDS} s per side, node ${process.version}, ${cpus().length} CPUs, load average ${load()}`);
  console.log("msg/s is wall clock; msg/CPU-s divides by the CPU time of the runtime process plus the sandbox process");
  console.log("(the proxy_pass receiver of (e) runs in its own process and is counted for neither side).");
  console.log("Each figure: median of the rounds (min, max).");
  const store = new InMemoryKeyValueStore();

  // (a) and (b): no renderer needed.
  if (SECTIONS.has("ab")) {
    const plain = new CommandRuntime({ store });
    plain.setCommands(CHANNEL, plainCommands);
    const floor = new BarePlainBot(plainCommands);
    const ab = await alternate(ROUNDS, {
      a: () => measure(plain, chatEvents, 1, false),
      b: () => measure(plain, plainEvents, 1, true),
      bFloor: () => measure(floor, plainEvents, 1, true),
    });
    reportSide("a", "(a) non-command chat", ab.a, 1_000_000);
    reportSide("b", "(b) plain-text commands", ab.b, 200_000);
    reportSide("b-floor", "(b0) floor of (b): the same messages, validated, answered from a Map", ab.bFloor);
    reportRatio("b-b0", "    b/b0 (runtime relative to the bare lookup)", ab.b, ab.bFloor, {});
  }

  // (c) sandbox and (d) bare nunjucks, same templates, alternating rounds.
  const sandbox = new TemplateSandbox();
  const sandboxed = new CommandRuntime({ store, renderer: sandbox });
  sandboxed.setCommands(CHANNEL, templateCommands);
  const pid = () => sandbox.sandboxPid;
  const bare = new CommandRuntime({ store, renderer: new NunjucksRenderer() });
  bare.setCommands(CHANNEL, templateCommands);
  if (SECTIONS.has("cd")) {
    const cd = await alternate(ROUNDS, { c: () => measure(sandboxed, templateEvents, 64, true, pid), d: () => measure(bare, templateEvents, 1, true), dInFlight: () => measure(bare, templateEvents, 64, true) });
    reportSide("c", "(c) template commands, sandbox (isolated-vm), no outbound", cd.c);
    reportSide("d", "(d) same templates, bare nunjucks (no sandbox)", cd.d);
    // Not a reference of a target: what 64 messages in flight cost the runtime without a sandbox,
    // which separates that cost from the sandbox's in (c)'s thread breakdown.
    reportSide("d-in-flight", "(d') bare nunjucks with 64 in flight, as (c) runs", cd.dInFlight);
    reportRatio("c-d", "    c/d (sandbox relative to bare nunjucks)", cd.c, cd.d, { cpu: 0.5 });
    // Not the target's ratio: (c) against the reference at its own concurrency, which leaves out what
    // 64 messages in flight cost the runtime itself (the target keeps d, the reference at its best).
    reportRatio("c-d-in-flight", "    c/d' (both with 64 in flight)", cd.c, cd.dInFlight, {});
    reportThreads("c", cd.c, cd.d);
  }

  if (SECTIONS.has("e")) await outboundSection(store, sandbox, pid);
  if (SECTIONS.has("hostile")) await hostileSection(store, sandbox);
  if (SECTIONS.has("fair")) await fairness(sandbox, store, load);

  console.log(`load average at the end: ${load()}`);
  await sandbox.close();
}

/** (e) beside its floor, alternating rounds. */
async function outboundSection(store: InMemoryKeyValueStore, sandbox: TemplateSandbox, pid: () => number | undefined): Promise<void> {
  // (e) proxy_pass against a loopback receiver (allowlisted; rate limit lifted for the bench), and
  // its floor. The receiver runs in a child process so its work is counted for neither side.
  const server = spawn(process.execPath, ["-e", RECEIVER], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
  });
  const url = `http://127.0.0.1:${port}/api/commands`;
  const http = new GuardedHttpClient({ allow: ["127.0.0.1"], callsPerMinute: Number.MAX_SAFE_INTEGER });
  const outbound = new CommandRuntime({ store, renderer: sandbox, http });
  outbound.setCommands(CHANNEL, [{ command: "bal", command_aliases: ["$"], response: `{{ proxy_pass('${url}') }}`, global_cooldown: 0 }]);
  const balEvents = Array.from({ length: 1024 }, (_, i) => event(i, i % 2 === 0 ? "!bal" : "!$"));
  if ((await outbound.handle(balEvents[0] as ChatEvent))?.text !== "points: 42") throw new Error("proxy_pass did not answer the receiver's text");
  const body = await (await request(`http://127.0.0.1:${port}/last`)).body.text();
  // Passes sent to the sandbox per message: 1 when the host makes the template's leading call before
  // the render (docs/templates.md), 2 when a first pass has to stop at the call.
  let passes = 0;
  let messages = 0;
  const e = await alternate(ROUNDS, {
    e: async () => {
      const before = (await sandbox.stats()).passes;
      const figure = await measure(outbound, balEvents, 64, true, pid);
      passes += (await sandbox.stats()).passes - before;
      messages += figure.sent;
      return figure;
    },
    floor: () => measureFloor(url, body, 64),
  });
  reportSide("e", "(e) templates calling proxy_pass (loopback, allowlisted)", e.e, 5_000);
  reportSide("e-floor", "    floor: bare undici POST of the same body, same receiver", e.floor);
  reportRatio("e-over-floor", "    e/floor", e.e, e.floor, { wall: 0.5 });
  reportThreads("e", e.e, e.floor);
  console.log(`    (the body proxy_pass sends and the floor posts: ${body.length} bytes)`);
  console.log(`    sandbox passes per (e) message: ${(passes / messages).toFixed(2)} (${passes.toLocaleString("en-US")} for ${messages.toLocaleString("en-US")} messages, warm-up rounds included)`);

  await http.close();
  server.kill();
}

/** Event-loop delay of this process while the hostile corpus runs beside ordinary traffic. */
async function hostileSection(store: InMemoryKeyValueStore, sandbox: TemplateSandbox): Promise<void> {
  const hostileDir = new URL("../../../fixtures/templates/hostile/", import.meta.url);
  const hostile = readdirSync(hostileDir)
    .filter((f) => !f.startsWith("."))
    .sort()
    .map((f) => readFileSync(new URL(f, hostileDir), "utf8"));
  const mixed = new CommandRuntime({ store, renderer: sandbox, http: new GuardedHttpClient() });
  const hostileCommands: BotCommandInput[] = [];
  hostile.forEach((source, n) => {
    const candidate = { command: `h${n}`, response: source.slice(0, 2_000), global_cooldown: 0 };
    try {
      mixed.prepare(candidate);
      hostileCommands.push(candidate);
    } catch {
      // Refused at save time (syntax error, too long): it never reaches the runtime.
    }
  });
  mixed.setCommands(CHANNEL, [...hostileCommands, ...templateCommands, ...plainCommands]);
  const hostileEvents = hostileCommands.map((cmd, n) => event(n, `!${String(cmd.command)} x`, ["moderator"]));
  const ordinary = [...templateEvents.slice(0, 100), ...plainEvents.slice(0, 100), ...chatEvents.slice(0, 100)];
  let ordinaryDone = 0;
  let hostileDone = 0;
  let maxDelay = 0;
  /** One phase: two loops of ordinary traffic, and two of the hostile corpus when `withHostile`; the event loop's p99 delay (ms). */
  const phase = async (withHostile: boolean): Promise<number> => {
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    const until = performance.now() + Math.max(1.5, SECONDS * 1.5) * 1000;
    const ordinaryTraffic = async () => {
      let k = 0;
      while (performance.now() < until) {
        await mixed.handle(ordinary[k++ % ordinary.length]);
        ordinaryDone++;
        if (k % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const hostileTraffic = async () => {
      let k = 0;
      while (performance.now() < until) {
        await mixed.handle(hostileEvents[k++ % hostileEvents.length]).catch(() => null);
        hostileDone++;
      }
    };
    await Promise.all([ordinaryTraffic(), ordinaryTraffic(), ...(withHostile ? [hostileTraffic(), hostileTraffic()] : [])]);
    histogram.disable();
    if (withHostile) maxDelay = Math.max(maxDelay, histogram.max / 1e6);
    return histogram.percentile(99) / 1e6;
  };
  const rounds = await alternate(ROUNDS, { ordinary: () => phase(false), hostile: () => phase(true) });
  report({ id: "commands.hostile.p99", label: "event-loop p99 delay, hostile corpus beside ordinary traffic", unit: "ms", rounds: ROUNDS, value: spreadOf(rounds.hostile), better: "lower", target: { op: "<=", value: 10 } });
  report({ id: "commands.hostile.reference", label: "    the same, ordinary traffic alone (reference)", unit: "ms", rounds: ROUNDS, value: spreadOf(rounds.ordinary), better: "lower" });
  console.log(`    (${hostileCommands.length} of ${hostile.length} hostile templates accepted at save time; ${hostileDone} hostile and ${ordinaryDone} ordinary messages handled; max delay ${maxDelay.toFixed(1)} ms)`);
}

/** Latency percentile (ms) of sorted samples. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * (f) A quiet channel's `!hug` latency, one message at a time, alone and then beside a noisy channel
 * whose 4 loops send timeout bombs without pause: the same sandbox, the same run.
 */
async function fairness(sandbox: TemplateSandbox, store: InMemoryKeyValueStore, load: () => string): Promise<void> {
  const runtime = new CommandRuntime({ store, renderer: sandbox });
  const hug = templateCommands.find((c) => c.command === "hug") as BotCommandInput;
  const bomb = { command: "bomb", response: "{% for i in range(1, 10000) %}{% for j in range(1, 10000) %}{% endfor %}{% endfor %}", global_cooldown: 0 };
  runtime.setCommands("quiet-channel", [hug]);
  runtime.setCommands("noisy-channel", [bomb]);
  const inChannel = (e: ChatEvent, id: string): ChatEvent => ({ ...e, channel: { ...e.channel, id } });
  const hugEvent = (i: number) => inChannel(event(i, "!hug bob"), "quiet-channel");
  const bombEvent = (i: number) => inChannel(event(i, "!bomb", ["moderator"]), "noisy-channel");
  const sampleQuiet = async (until: number): Promise<number[]> => {
    const samples: number[] = [];
    for (let i = 0; performance.now() < until && samples.length < 5_000; i++) {
      const start = performance.now();
      await runtime.handle(hugEvent(i));
      samples.push(performance.now() - start);
    }
    return samples.sort((x, y) => x - y);
  };
  let bombs = 0;
  /** One round beside the noisy channel: 4 loops of bombs while the quiet channel is sampled. */
  const beside = async (): Promise<number[]> => {
    let stop = false;
    const noisyLoop = async () => {
      for (let i = 0; !stop && bombs < 2_000; i++) {
        await runtime.handle(bombEvent(i)).catch(() => null);
        bombs++;
      }
    };
    const loops = Array.from({ length: 4 }, noisyLoop);
    const samples = await sampleQuiet(performance.now() + Math.max(2, SECONDS * 2) * 1000);
    stop = true;
    await Promise.all(loops);
    return samples;
  };
  const rounds = await alternate(ROUNDS, { alone: () => sampleQuiet(performance.now() + SECONDS * 1000), beside });
  const p = (side: "alone" | "beside", q: number) => spreadOf(rounds[side].map((samples) => percentile(samples, q)));
  for (const side of ["alone", "beside"] as const) {
    const label = side === "alone" ? "(f) quiet channel !hug, alone" : "(f) quiet channel !hug, beside 4 loops of timeout bombs";
    report({ id: `commands.fair.${side}.p50`, label: `${label}, p50`, unit: "ms", rounds: ROUNDS, value: p(side, 50), better: "lower" });
    report({ id: `commands.fair.${side}.p99`, label: `${label}, p99`, unit: "ms", rounds: ROUNDS, value: p(side, 99), better: "lower" });
  }
  // The target per round: quiet p99 beside the noisy channel under 4x its p99 alone + one time limit.
  const overTarget = rounds.beside.map((samples, i) => percentile(samples, 99) / (4 * percentile(rounds.alone[i] as number[], 99) + sandbox.limits.timeoutMs));
  report({ id: "commands.fair.target", label: "    beside p99 / (4 x alone p99 + time limit), same round", unit: "x", rounds: ROUNDS, value: spreadOf(overTarget), better: "lower", target: { op: "<=", value: 1 } });
  console.log(`    ${bombs} bombs ran meanwhile (load average ${load()})`);
}

await main();
