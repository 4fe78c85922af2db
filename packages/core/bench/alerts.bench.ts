// The AE4 alert engine, side by side in one run, on a realistic set (every catalog type on the 4
// streaming platforms, 50 variations):
//   (a) condition evaluations per second, compiled with json-logic-engine (what resolveAlert uses),
//   (b) the same conditions on the same alerts interpreted by json-logic-js (the reference),
//   (c) full resolves per second (resolveAlert: lookup, conditions, merged template).
// Targets (one core): a >= 20 x b in the same round, c >= 1,000,000/s (nothing else does that work, so
// it has no reference). Each figure is the median of BENCH_ROUNDS (default 5) alternating rounds of
// a, a', b and c, with min and max.
// Run: npm run bench -- alerts   (builds first; BENCH_SECONDS sets the time of one round of one side)
import jsonLogic from "json-logic-js";
import type { RulesLogic } from "json-logic-js";
import {
  ALERT_CATALOG,
  compileCondition,
  compileConditionMask,
  conditionVariables,
  buildConditionContext,
  resolveAlert,
  type AlertInput,
  type AlertSetInput,
  type Condition,
} from "@ovation/core";
import { alternate, benchRounds, ratiosOf, report, spreadOf } from "../../../scripts/bench-figures.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 0.3);
const ROUNDS = benchRounds();
const PLATFORMS = ["twitch", "youtube", "kick", "tiktok"] as const;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const random = rng(42);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const types = ALERT_CATALOG.map((t) => t.type);
const isType = (type: string) => ({ "===": [{ var: "type" }, type] });
const isPlatform = (platform: string) => ({ "===": [{ var: "platform" }, platform] });

// 14 catch-alls (one per type) + 36 conditional variations of the kinds streamers write.
const conditional: Condition[] = [
  { and: [isPlatform("twitch"), { ">=": [{ var: "amount" }, 1000] }] },
  { and: [isType("cheer"), { ">=": [{ var: "amount" }, 100] }, { "<": [{ var: "amount" }, 1000] }] },
  { and: [isType("cheer"), { ">=": [{ var: "amount" }, 10000] }] },
  { and: [isType("cheer"), { "===": [{ var: "is_anonymous" }, true] }] },
  { and: [isType("subscribe"), { "===": [{ var: "tier" }, "3000"] }] },
  { and: [isType("subscribe"), { in: [{ var: "tier" }, ["2000", "3000"]] }] },
  { and: [isType("subscribe"), { "===": [{ var: "is_gift" }, true] }] },
  { and: [isType("re-subscribe"), { ">=": [{ var: "months" }, 12] }] },
  { and: [isType("re-subscribe"), { ">=": [{ var: "months" }, 24] }, isPlatform("twitch")] },
  { and: [isType("gift-subscribe"), { ">=": [{ var: "amount" }, 5] }] },
  { and: [isType("gift-subscribe"), { ">=": [{ var: "amount" }, 50] }] },
  { and: [isType("raid"), { ">=": [{ var: "count" }, 10] }] },
  { and: [isType("raid"), { ">=": [{ var: "count" }, 100] }] },
  { and: [isType("donation"), { ">=": [{ var: "amount" }, 10] }] },
  { and: [isType("donation"), { ">=": [{ var: "amount" }, 100] }, { "===": [{ var: "currency" }, "EUR"] }] },
  { and: [isType("superchat"), { ">=": [{ var: "amount" }, 20] }] },
  { and: [isType("charity-donation"), { ">=": [{ var: "amount" }, 25] }] },
  { and: [isType("follow"), { "<=": [{ var: "random" }, 10] }] },
  { and: [isType("follow"), isPlatform("youtube")] },
  { "<=": [{ var: "random" }, 5] },
  { or: [isType("raid"), isType("channel.shoutout.receive")] },
  { and: [isType("channel.hype_train.begin"), { ">=": [{ var: "level" }, 3] }] },
  { and: [isType("channel_points.redemption.add"), { "===": [{ var: "reward_title" }, "Hydrate"] }] },
  { and: [isType("channel_points.redemption.add"), { ">=": [{ var: "reward_cost" }, 5000] }] },
  { and: [isPlatform("kick"), { ">=": [{ var: ["amount", 0] }, 50] }] },
  { and: [isPlatform("tiktok"), { "!": [{ "===": [{ var: "type" }, "follow"] }] }] },
  { and: [isType("supersticker"), { ">": [{ var: "amount" }, 0] }] },
  { and: [isType("cheer"), { "<": [100, { var: "amount" }, 500] }] },
  { and: [isType("re-subscribe"), { "!==": [{ var: "message" }, ""] }] },
  { and: [isType("gift-subscribe"), { "===": [{ var: "is_anonymous" }, true] }] },
  { and: [isType("donation"), { "<=": [{ var: "random" }, 50] }, { ">=": [{ var: "amount" }, 5] }] },
  { and: [isType("subscribe"), isPlatform("youtube"), { "!==": [{ var: "tier" }, ""] }] },
  { and: [isType("cheer"), isPlatform("twitch"), { ">=": [{ var: "amount" }, 5000] }] },
  { or: [{ and: [isType("raid"), { ">=": [{ var: "count" }, 500] }] }, { and: [isType("cheer"), { ">=": [{ var: "amount" }, 50000] }] }] },
  { and: [isType("follow"), { "==": [{ var: "name" }, "streamer"] }] },
  { and: [isType("charity-donation"), { "===": [{ var: "currency" }, "USD"] }] },
];
const conditions: Condition[] = [...types.map(isType), ...conditional];
if (conditions.length !== 50) throw new Error(`expected 50 variations, got ${conditions.length}`);

const set: AlertSetInput = {
  id: 1,
  version: 4,
  user_id: 1,
  active: true,
  default: { title: null, subtitle: null, font_family: "Inter", font_color: "#ffffff" },
  defaults: types.flatMap((type) =>
    PLATFORMS.map((platform) => ({ platform, type: type as AlertSetInput["defaults"][number]["type"], name: type, enabled: true, default: { title: `{{name}} (${type})` } })),
  ),
  variations: conditions.map((c, i) => ({
    name: `variation ${i}`,
    conditions: c,
    overrides: i % 3 === 0 ? { font_color: "#ff0000" } : i % 3 === 1 ? { display_time: 5000 + i } : { title: `{{name}} v${i}` },
  })),
};

const alerts: AlertInput[] = Array.from({ length: 4096 }, () => ({
  type: pick(types),
  platform: pick(PLATFORMS),
  data: {
    name: pick(["Alice", "Bob", "streamer", "Zoë"]),
    amount: Math.floor(random() * 20_000),
    count: Math.floor(random() * 600),
    months: Math.floor(random() * 40),
    tier: pick(["1000", "2000", "3000"]),
    is_gift: random() < 0.2,
    is_anonymous: random() < 0.1,
    currency: pick(["USD", "EUR"]),
    message: pick(["", "hi"]),
    level: Math.floor(random() * 5),
    reward_title: pick(["Hydrate", "Stretch"]),
    reward_cost: Math.floor(random() * 10_000),
  },
  random: 1 + Math.floor(random() * 100),
}));
// The variables the conditions see, built the way resolveAlert builds them per alert.
const variables = [...(conditionVariables(conditions) ?? [])].filter((v) => !["type", "platform", "enabled", "random"].includes(v)).sort();
const contexts = alerts.map((a) => buildConditionContext(a, { variables }));

/**
 * One round: runs `batch` (which does 1000 iterations itself, so each loop below stays monomorphic)
 * for SECONDS and returns its rate per CPU second of this process x `perIteration`. Per CPU second,
 * not per wall-clock second: on a shared machine the wall clock also counts the time other
 * processes held this one's core.
 */
function measure(batch: (offset: number) => number, perIteration: number): number {
  let sink = 0;
  let iterations = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  while (performance.now() - start < SECONDS * 1000) {
    sink += batch(iterations);
    iterations += 1000;
  }
  const used = process.cpuUsage(cpu);
  if (sink === -1) console.log("unreachable");
  return (iterations / ((used.user + used.system) / 1e6)) * perIteration;
}

const mask = contexts.length - 1;
const compiledSet = compileConditionMask(conditions);
const compiledEach = conditions.map((c) => compileCondition(c));

// (a) the compiled evaluator as resolveAlert runs it: all 50 conditions in one compiled call.
const sideA = () => measure((offset) => {
  let n = 0;
  for (let i = offset; i < offset + 1000; i++) n += compiledSet(contexts[i & mask] as Record<string, unknown>);
  return n;
}, conditions.length);
// (a') one compiled function per condition (compileCondition), for comparison.
const sideAEach = () => measure((offset) => {
  let n = 0;
  for (let i = offset; i < offset + 1000; i++) {
    const ctx = contexts[i & mask] as Record<string, unknown>;
    for (let k = 0; k < compiledEach.length; k++) if ((compiledEach[k] as (c: Record<string, unknown>) => boolean)(ctx)) n++;
  }
  return n;
}, conditions.length);
// (b) json-logic-js interpreting the same conditions on the same alerts.
const sideB = () => measure((offset) => {
  let n = 0;
  for (let i = offset; i < offset + 1000; i++) {
    const ctx = contexts[i & mask] as Record<string, unknown>;
    for (let k = 0; k < conditions.length; k++) if (jsonLogic.truthy(jsonLogic.apply(conditions[k] as RulesLogic, ctx))) n++;
  }
  return n;
}, conditions.length);

// The evaluators must agree before their speeds mean anything.
for (const ctx of contexts) {
  let expected = 0;
  conditions.forEach((c, k) => {
    const reference = jsonLogic.truthy(jsonLogic.apply(c as RulesLogic, ctx));
    if ((compiledEach[k] as (x: unknown) => boolean)(ctx) !== reference) throw new Error(`evaluators disagree on variation ${k}`);
    if (reference) expected += 2 ** k;
  });
  if (compiledSet(ctx) !== expected) throw new Error("the compiled mask disagrees with json-logic-js");
}

// (c) full resolves: lookup of type+platform, the conditions, the merged template.
let shown = 0;
for (const alert of alerts) if (!resolveAlert(set, alert).disabled) shown++;
const sideC = () => measure((offset) => {
  let n = 0;
  for (let i = offset; i < offset + 1000; i++) if (!resolveAlert(set, alerts[i & mask] as AlertInput).disabled) n++;
  return n;
}, 1);

const rounds = await alternate(ROUNDS, { a: sideA, aEach: sideAEach, b: sideB, c: sideC });
console.log(`alert set: ${set.defaults.length} type defaults (${types.length} types x ${PLATFORMS.length} platforms), ${conditions.length} variations; ${alerts.length} alerts, ${shown} shown`);
console.log(`${ROUNDS} alternating rounds of ${SECONDS} s per side; each figure: median (min, max), per CPU second of this process`);
report({ id: "alerts.a", label: "(a) condition evaluations/s, compiled (all 50 in one call)", unit: "/CPU-s", rounds: ROUNDS, value: spreadOf(rounds.a), better: "higher" });
report({ id: "alerts.a-each", label: "    one compiled function per condition", unit: "/CPU-s", rounds: ROUNDS, value: spreadOf(rounds.aEach), better: "higher" });
report({ id: "alerts.b", label: "(b) condition evaluations/s, json-logic-js (reference)", unit: "/CPU-s", rounds: ROUNDS, value: spreadOf(rounds.b), better: "higher" });
report({ id: "alerts.a-b", label: "    a/b, same round", unit: "x", rounds: ROUNDS, value: spreadOf(ratiosOf(rounds.a, rounds.b)), better: "higher", target: { op: ">=", value: 20 } });
report({ id: "alerts.c", label: "(c) full resolves/s (resolveAlert)", unit: "/CPU-s", rounds: ROUNDS, value: spreadOf(rounds.c), better: "higher", target: { op: ">=", value: 1_000_000 } });
