import { afterAll, describe, expect, it } from "vitest";
import type { IsolatePoolStats } from "../isolate-pool.js";
import { TemplateSandbox } from "../template-sandbox.js";
import { recordingFunctions, variables } from "./template-test-kit.js";

const SPIN = "{% for i in range(1, 10000) %}{% for j in range(1, 10000) %}{% endfor %}{% endfor %}";
const MEMORY_BOMB = "{{ range(1, 10000)|map(i => range(1, 10000))|length }}";

const vars = variables(["!cmd", "x"]);

async function isolatesOf(sandbox: TemplateSandbox): Promise<IsolatePoolStats> {
  const stats = await sandbox.stats();
  expect(stats.isolates, "a sandbox process runs and answers").not.toBeNull();
  return stats.isolates as IsolatePoolStats;
}

/**
 * Renders `source`, which must hit a limit, in a warm pool of two isolates, and checks through
 * `stats()` that exactly the isolate it ran in was disposed and replaced by a new one, that the
 * other isolate was kept, and that ordinary renders work afterwards.
 */
async function expectReplacement(
  sandbox: TemplateSandbox,
  source: string,
  code: string,
  reason: "timeout" | "memory",
): Promise<void> {
  const ordinary = sandbox.compile("ok {{ args[1] }}");
  expect(await sandbox.render(ordinary, vars, recordingFunctions())).toBe("ok x");
  const before = await sandbox.stats();
  const pool = await isolatesOf(sandbox);
  expect(pool.live).toHaveLength(2);
  expect(pool.created).toBe(2);
  expect(pool.replaced).toBe(0);
  expect(pool.recentlyReplaced).toEqual([]);

  await expect(sandbox.render(sandbox.compile(source), vars, recordingFunctions())).rejects.toMatchObject({ code });

  const after = await sandbox.stats();
  expect(after.sandboxPid, "the sandbox process itself survived").toBe(before.sandboxPid);
  expect(after.restarts).toBe(before.restarts);
  const replaced = await isolatesOf(sandbox);
  expect(replaced.created).toBe(3);
  expect(replaced.replaced).toBe(1);
  expect(replaced.recentlyReplaced).toHaveLength(1);
  const failed = replaced.recentlyReplaced[0] as IsolatePoolStats["recentlyReplaced"][number];
  expect(failed).toMatchObject({ reason, disposed: true });
  expect(pool.live).toContain(failed.id);
  const healthy = pool.live.filter((id) => id !== failed.id);
  expect(healthy).toHaveLength(1);
  const fresh = Math.max(...pool.live) + 1;
  expect(replaced.live).toEqual([...healthy, fresh].sort((a, b) => a - b));

  const outputs = await Promise.all(Array.from({ length: 10 }, () => sandbox.render(ordinary, vars, recordingFunctions())));
  expect(outputs).toEqual(Array.from({ length: 10 }, () => "ok x"));
  expect((await isolatesOf(sandbox)).live).toEqual(replaced.live);
}

describe("isolate replacement after a limit", () => {
  const quick = new TemplateSandbox({ timeoutMs: 50, memoryLimitMb: 16, poolSize: 2 });
  // A generous CPU limit, so that the memory limit is what stops the bomb.
  const roomy = new TemplateSandbox({ timeoutMs: 20_000, memoryLimitMb: 16, poolSize: 2 });
  const single = new TemplateSandbox({ poolSize: 1 });
  afterAll(async () => {
    await Promise.all([quick.close(), roomy.close(), single.close()]);
  });

  it("reports no isolates before the first render and after close", async () => {
    const idle = new TemplateSandbox();
    expect(await idle.stats()).toEqual({ sandboxPid: undefined, restarts: 0, isolates: null, passes: 0 });
    expect(await idle.render(idle.compile("{{ 1 + 1 }}"), vars, recordingFunctions())).toBe("2");
    expect((await isolatesOf(idle)).live).toEqual([1, 2]);
    await idle.close();
    expect((await idle.stats()).isolates).toBeNull();
  });

  it("disposes and replaces the isolate whose render hit the CPU-time limit, and only that one", async () => {
    await expectReplacement(quick, SPIN, "OVATION_ERR_TEMPLATE_TIMEOUT", "timeout");
  });

  it("disposes and replaces the isolate whose render hit the memory limit, and only that one", async () => {
    await expectReplacement(roomy, MEMORY_BOMB, "OVATION_ERR_TEMPLATE_MEMORY", "memory");
  });

  it("keeps nothing a render set inside its isolate for the next render in that isolate", async () => {
    const first = await single.render(
      single.compile(
        "{% set leaked = 'first' %}{% for i in range(0, 2) %}{% set inner = i %}{% endfor %}{% set args = ['forged'] %}{{ leaked }} {{ args[0] }}",
      ),
      vars,
      recordingFunctions(),
    );
    expect(first).toBe("first forged");
    const pool = await isolatesOf(single);
    expect(pool.live).toEqual([1]);
    const second = await single.render(
      single.compile("{{ leaked is defined ? 'yes' : 'no' }} {{ inner is defined ? 'yes' : 'no' }} {{ args[0] }}|{{ leaked }}"),
      vars,
      recordingFunctions(),
    );
    expect(second).toBe("no no !cmd|");
    const after = await isolatesOf(single);
    expect(after.live, "both renders ran in the same isolate").toEqual([1]);
    expect(after.replaced).toBe(0);
  });
});
