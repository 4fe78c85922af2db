/**
 * Sandboxed template renders per second (TemplateSandbox: compiled on the host, rendered in
 * isolated-vm isolates in the sandbox process) beside the same templates rendered by nunjucks
 * directly in this process (no sandbox), from the same run. Run with `npm run bench templates`.
 */
import { existsSync, readFileSync } from "node:fs";
import nunjucks from "nunjucks";
import { TemplateSandbox } from "@ovation/core";
import type { ChatEvent, TemplateHostFunctions, TemplateVariables } from "@ovation/core";

const DURATION_MS = Number(process.env["BENCH_MS"] ?? 3_000);
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

let sandboxCpuSeconds = 0;

async function sandboxed(): Promise<number> {
  const sandbox = new TemplateSandbox();
  const compiled = TEMPLATES.map((t) => sandbox.compile(t.twig));
  let done = 0;
  let next = 0;
  const pump = async (until: number, count: boolean): Promise<void> => {
    const worker = async (): Promise<void> => {
      while (performance.now() < until) {
        await sandbox.render(compiled[next++ % compiled.length]!, variables, functions);
        if (count) done++;
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  };
  await pump(performance.now() + 500, false);
  const start = performance.now();
  const hostBefore = process.cpuUsage();
  const childBefore = processCpuSeconds(sandbox.sandboxPid);
  await pump(start + DURATION_MS, true);
  const rate = done / ((performance.now() - start) / 1000);
  const host = process.cpuUsage(hostBefore);
  sandboxCpuSeconds = (host.user + host.system) / 1e6 + processCpuSeconds(sandbox.sandboxPid) - childBefore;
  sandboxCpuSeconds /= done;
  await sandbox.close();
  return rate;
}

function direct(): number {
  const env = new nunjucks.Environment([], { autoescape: false });
  env.addGlobal("random", (a: unknown, b?: number) =>
    Array.isArray(a) ? a[Math.floor(Math.random() * a.length)] : Number(a) + Math.floor(Math.random() * (Number(b) - Number(a) + 1)),
  );
  const compiled = TEMPLATES.map((t) => new nunjucks.Template(t.nunjucks, env, undefined, true));
  const context = JSON.parse(JSON.stringify(variables)) as object;
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < DURATION_MS) {
    for (let i = 0; i < 1_000; i++) compiled[i % compiled.length]!.render(context).trim();
    done += 1_000;
  }
  return done / ((performance.now() - start) / 1000);
}

const sandboxRate = await sandboxed();
const directRate = direct();
const fmt = (n: number): string => Math.round(n).toLocaleString("en-US").padStart(12);
console.log(`templates (${TEMPLATES.map((t) => t.name).join(", ")}), ${DURATION_MS} ms each`);
console.log(`  sandboxed (isolated-vm, sandbox process) renders/s: ${fmt(sandboxRate)}`);
console.log(`  nunjucks directly (no sandbox)           renders/s: ${fmt(directRate)}`);
console.log(`  ratio sandboxed / direct: ${(sandboxRate / directRate).toFixed(3)}`);
if (sandboxCpuSeconds > 0) {
  console.log(
    `  sandboxed renders per CPU-second (host + sandbox process): ${fmt(1 / sandboxCpuSeconds)} (${(sandboxCpuSeconds * 1e6).toFixed(1)} µs each)`,
  );
}
