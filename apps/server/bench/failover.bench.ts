// Failover time of channels across nodes: three `ovation start` processes on one PostgreSQL and
// one Redis serve linked Kick channels (the fake Kick, signed webhooks); one node is SIGKILLed, and
// each of its channels is sent a chat line every 100 ms through the survivors until it is answered.
// Per channel of the killed node: the time from the SIGKILL to the first answer the fake Kick
// receives for it. The killed node is started again (it takes its share back) before the next
// kill; p50/p99 over every channel of every kill. With the lease lifetime and node TTL of
// BENCH_LEASE_SECONDS / BENCH_NODE_TTL_SECONDS (default 5 s each; production default 15 s): the
// failover is bounded by the larger of the two plus a third of the lease lifetime.
import { report, spreadOf } from "../../../scripts/bench-figures.js";
import { startKickInstallation, total } from "../src/__tests__/kick-installation.js";
import type { KickAccount } from "../src/__tests__/kick-installation.js";

const KILLS = Number(process.env["BENCH_KILLS"] ?? 10);
const CHANNELS = Number(process.env["BENCH_FAILOVER_CHANNELS"] ?? 30);
const LEASE_SECONDS = Number(process.env["BENCH_LEASE_SECONDS"] ?? 5);
const NODE_TTL_SECONDS = Number(process.env["BENCH_NODE_TTL_SECONDS"] ?? 5);
const names = ["node-a", "node-b", "node-c"];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const install = await startKickInstallation({ channels: CHANNELS, leaseSeconds: LEASE_SECONDS, nodeTtlSeconds: NODE_TTL_SECONDS, more: names.slice(1) });

/** Waits (bounded) until every channel is served and each of the three nodes serves some. */
async function settled(): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const counts = await install.servedByNode().catch(() => ({}) as Record<string, number>);
    if (total(counts) === CHANNELS && names.every((n) => (counts[n] ?? 0) > 0)) return true;
    await pause(250);
  }
  return false;
}

const times: number[] = [];
let lost = 0;
console.log(`failover: ${CHANNELS} Kick channels on 3 nodes, lease ${LEASE_SECONDS} s, node TTL ${NODE_TTL_SECONDS} s, ${KILLS} kills`);
try {
  for (let k = 0; k < KILLS; k++) {
    if (!(await settled())) throw new Error(`kill ${k + 1}: the channels did not settle on three nodes`);
    const victimName = names[k % names.length]!;
    const victim = install.live().find((n) => n.name === victimName)!;
    const orphans = await install.servedBy(victimName);
    const survivors = install.live().filter((n) => n !== victim);
    await victim.kill();
    const killedAt = performance.now();
    const pending = new Map<number, KickAccount>(orphans.map((a) => [a.user_id, a]));
    const tags = new Map<string, KickAccount>();
    let i = 0;
    const deadline = killedAt + (LEASE_SECONDS + NODE_TTL_SECONDS + 15) * 1000;
    while (pending.size > 0 && performance.now() < deadline) {
      for (const account of pending.values()) tags.set(await install.line(account, survivors[i++ % survivors.length]!), account);
      const until = performance.now() + 100;
      while (performance.now() < until) {
        for (const [tag, account] of tags) {
          if (pending.has(account.user_id) && install.answers(tag).length > 0) {
            pending.delete(account.user_id);
            times.push(performance.now() - killedAt);
          }
        }
        await pause(10);
      }
    }
    lost += pending.size;
    console.log(`  kill ${k + 1} (${victimName}): ${orphans.length} channels moved, last answered ${(Math.max(...times.slice(-orphans.length)) / 1000).toFixed(2)} s after the kill${pending.size ? `, ${pending.size} never answered` : ""}`);
    // The killed node comes back (same id) and takes its share again.
    install.nodes.splice(install.nodes.indexOf(victim), 1);
    await install.startNode(victimName);
  }
} finally {
  await install.close();
}

const sorted = [...times].sort((a, b) => a - b);
const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
console.log(`SIGKILL -> first answer on the new node, over ${times.length} channels of ${KILLS} kills: p50 ${(at(50) / 1000).toFixed(2)} s, p99 ${(at(99) / 1000).toFixed(2)} s${lost ? `; ${lost} channels never answered` : ""}`);
report({ id: "failover.p50", label: `failover p50 (lease ${LEASE_SECONDS} s, node TTL ${NODE_TTL_SECONDS} s)`, unit: "ms", rounds: KILLS, value: spreadOf([at(50)]), better: "lower" });
report({ id: "failover.p99", label: `failover p99 (target <= lease + 5 s)`, unit: "ms", rounds: KILLS, value: spreadOf([at(99)]), better: "lower", target: { op: "<=", value: (LEASE_SECONDS + 5) * 1000 } });
