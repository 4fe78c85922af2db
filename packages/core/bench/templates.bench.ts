/**
 * Sandboxed template renders per second (TemplateSandbox: compiled on the host, rendered in
 * isolated-vm isolates in the sandbox process) beside the same templates rendered by nunjucks
 * directly in this process (no sandbox), in BENCH_ROUNDS (default 5) alternating rounds of
 * BENCH_MS each; medians with min and max. Run with `npm run bench templates`.
 */
import { existsSync, readFileSync } from "node:fs";
import nunjucks from "nunjucks";
import { TemplateSandbox } from "@ovation/core";
import type { ChatEvent, TemplateHostFunctions, TemplateVariables } from "@ovation/core";
import { alternate, benchRounds, ratiosOf, report, spreadOf } from "../../../scripts/bench-figures.js";

const DURATION_MS = Number(process.env["BENCH_MS"] ?? 1_000);
const ROUNDS = benchRounds();
const IN_FLIGHT = 4_096;

/** Twig source for the sandbox, and the nunjucks equivalent (nunjucks has no arrow functions). */
const TEMPLATES: Array<{ name: string; twig: string; nunjucks: string }> = [
  {
    name: "dice",
    twig: "{% set number = random(1, 6) %}{% if number == 6 %}You rolled a lucky 6 today!{% else %}You rolled {{ number }}!{% endif %}",
    nunjucks: "{% set number = random(1, 6) %}{% if number == 6 %}You rolled a lucky 6 today!{% else %}You rolled {{ number }}!{% endif %}",
  },
  {
    name: "8ball",
    twig: '{% set answers = ["Yes", "No", "Maybe", "Ask again later"] %}{{ random(answers) }}',
    nunjucks: '{% set answers = ["Yes", "No", "Maybe", "Ask again later"] %}{{ random(answers) }}',
  },
  {
    name: "hug",
    twig: '{% set target = args[1] %}{% if target %}{{ event.user.username }} sends a hug to {{ target }} <3{% else %}Use "!hug <username>" to send a hug!{% endif %}',
    nunjucks: '{% set target = args[1] %}{% if target %}{{ event.user.username }} sends a hug to {{ target }} <3{% else %}Use "!hug <username>" to send a hug!{% endif %}',
  },
  {
    name: "subscriber",
    twig: "{% if event.user.badges|filter(b => b.type == 'subscriber') %}Thank you for being a subscriber, {{ event.user.username }}!{% else %}Hello, {{ event.user.username }}!{% endif %}",
    nunjucks: "{% if event.user.badges|selectattr('type', 'equalto', 'subscriber')|length %}Thank you for being a subscriber, {{ event.user.username }}!{% else %}Hello, {{ event.user.username }}!{% endif %}",
  },
];

const event: ChatEvent = {
  id: "m1",
  type: "message",
  timestamp: 1_763_700_000_000,
  platform: "twitch",
  user: {
    platform_id: "1001",
    username: "viewer42",
    avatar_url: "https://example.com/a.png",
    color: "#ff0000",
    badges: [
      { type: "subscriber", text: "12-Month Subscriber", id: "b1", count: 12 },
      { type: "vip", text: null, id: "b2", count: null },
    ],
  },
  channel: { id: "1", platform_id: "2002", username: "streamer", avatar_url: "https://example.com/s.png" },
  message: "!hug alice",
  fragments: [{ type: "text", text: "!hug alice" }],
  parent: null,
  attributes: { edited: false, accent: null, action: false, highlight: false },
};
const variables: TemplateVariables = {
  command: { command: "hug", commands: ["hug"], command_aliases: [], response: "", permissions: 0, price: 0 },
  event,
  args: ["!hug", "alice"],
  irc: { channel: "#streamer", message: "!hug alice" },
};
const refuse = (): Promise<never> => Promise.reject(new Error("not used by this bench"));
const functions: TemplateHostFunctions = {
  proxy_pass: refuse,
  json: refuse,
  db: refuse,
  inc: refuse,
  dec: refuse,
  set: refuse,
  cache: refuse,
  user: refuse,
  channel: refuse,
};

/** CPU seconds a process has used (Linux /proc; 0 elsewhere). */
function processCpuSeconds(pid: number | undefined): number {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Round {
  /** Renders per wall-clock second. */
  rate: number;
  /** Renders per CPU second (this process and the sandbox process; 0 where /proc is missing). */
  cpuRate: number;
}

const sandbox = new TemplateSandbox();
const compiled = TEMPLATES.map((t) => sandbox.compile(t.twig));

async function sandboxed(): Promise<Round> {
  let done = 0;
  let next = 0;
  const until = performance.now() + DURATION_MS;
  const start = performance.now();
  const hostBefore = process.cpuUsage();
  const childBefore = processCpuSeconds(sandbox.sandboxPid);
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      await sandbox.render(compiled[next++ % compiled.length]!, variables, functions);
      done++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const rate = done / ((performance.now() - start) / 1000);
  const host = process.cpuUsage(hostBefore);
  const child = processCpuSeconds(sandbox.sandboxPid) - childBefore;
  const cpu = (host.user + host.system) / 1e6 + child;
  return { rate, cpuRate: child > 0 ? done / cpu : 0 };
}

const env = new nunjucks.Environment([], { autoescape: false });
env.addGlobal("random", (a: unknown, b?: number) =>
  Array.isArray(a) ? a[Math.floor(Math.random() * a.length)] : Number(a) + Math.floor(Math.random() * (Number(b) - Number(a) + 1)),
);
const direct = TEMPLATES.map((t) => new nunjucks.Template(t.nunjucks, env, undefined, true));
const context = JSON.parse(JSON.stringify(variables)) as object;

function bare(): Round {
  let done = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  while (performance.now() - start < DURATION_MS) {
    for (let i = 0; i < 1_000; i++) direct[i % direct.length]!.render(context).trim();
    done += 1_000;
  }
  const used = process.cpuUsage(cpu);
  return { rate: done / ((performance.now() - start) / 1000), cpuRate: done / ((used.user + used.system) / 1e6) };
}

const rounds = await alternate(ROUNDS, { sandboxed, bare });
await sandbox.close();
console.log(`templates (${TEMPLATES.map((t) => t.name).join(", ")}), ${ROUNDS} alternating rounds of ${DURATION_MS} ms, ${IN_FLIGHT} sandboxed renders in flight`);
const rate = (side: Round[]) => side.map((r) => r.rate);
const cpuRate = (side: Round[]) => side.map((r) => r.cpuRate);
report({ id: "templates.sandboxed", label: "sandboxed renders/s (isolated-vm, sandbox process)", unit: "/s", rounds: ROUNDS, value: spreadOf(rate(rounds.sandboxed)), better: "higher" });
report({ id: "templates.bare", label: "nunjucks directly (no sandbox) renders/s", unit: "/s", rounds: ROUNDS, value: spreadOf(rate(rounds.bare)), better: "higher" });
report({ id: "templates.ratio", label: "    sandboxed / direct, wall clock", unit: "x", rounds: ROUNDS, value: spreadOf(ratiosOf(rate(rounds.sandboxed), rate(rounds.bare))), better: "higher" });
if (rounds.sandboxed.every((r) => r.cpuRate > 0)) {
  report({ id: "templates.sandboxed.cpu", label: "sandboxed renders per CPU second (host + sandbox process)", unit: "/CPU-s", rounds: ROUNDS, value: spreadOf(cpuRate(rounds.sandboxed)), better: "higher" });
  report({ id: "templates.ratio.cpu", label: "    sandboxed / direct, per CPU second", unit: "x", rounds: ROUNDS, value: spreadOf(ratiosOf(cpuRate(rounds.sandboxed), cpuRate(rounds.bare))), better: "higher" });
}
