import { afterAll, describe, expect, it } from "vitest";
import { TemplateRenderError } from "../template-errors.js";
import { TemplateSandbox } from "../template-sandbox.js";
import { recordingFunctions, variables } from "./template-test-kit.js";

const SPIN = "{% for i in range(1, 10000) %}{% for j in range(1, 10000) %}{% endfor %}{% endfor %}";
const MEMORY_BOMB = "{{ range(1, 10000)|map(i => range(1, 10000))|length }}";

async function failure(promise: Promise<string>): Promise<TemplateRenderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateRenderError);
    return error as TemplateRenderError;
  }
  throw new Error("expected the render to fail");
}

describe("sandbox limits", () => {
  const sandbox = new TemplateSandbox({ timeoutMs: 50, memoryLimitMb: 16, poolSize: 2 });
  afterAll(() => sandbox.close());
  const vars = variables(["!cmd", "x"]);

  it("stops a render that spins past the time limit with a timeout error", async () => {
    const error = await failure(sandbox.render(sandbox.compile(SPIN), vars, recordingFunctions()));
    expect(error.code).toBe("OVATION_ERR_TEMPLATE_TIMEOUT");
    expect(error.message).toContain("50 ms");
    expect(await sandbox.render(sandbox.compile("still {{ args[1] }}"), vars, recordingFunctions())).toBe("still x");
  });

  it("fails only the spinning render of a batch; its neighbours render", async () => {
    const ok = sandbox.compile("ok {{ args[1] }}");
    const spin = sandbox.compile(SPIN);
    const renders = [
      ...Array.from({ length: 20 }, () => sandbox.render(ok, vars, recordingFunctions())),
      sandbox.render(spin, vars, recordingFunctions()),
      ...Array.from({ length: 20 }, () => sandbox.render(ok, vars, recordingFunctions())),
    ];
    const settled = await Promise.allSettled(renders);
    const rejected = settled.filter((s) => s.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect((rejected[0] as PromiseRejectedResult).reason).toMatchObject({ code: "OVATION_ERR_TEMPLATE_TIMEOUT" });
    expect(settled.filter((s) => s.status === "fulfilled").map((s) => (s as PromiseFulfilledResult<string>).value)).toEqual(
      Array.from({ length: 40 }, () => "ok x"),
    );
  });

  it("survives a memory bomb: the render fails cleanly, the host lives, the next render works", async () => {
    // A generous CPU limit, so that the memory limit is what stops the bomb.
    const roomy = new TemplateSandbox({ timeoutMs: 20_000, memoryLimitMb: 16, poolSize: 1 });
    try {
      const hostHeapBefore = process.memoryUsage().heapUsed;
      const renders = [MEMORY_BOMB, "{% set s = 'x'|center(1000) %}{% for i in range(1, 10000) %}{% set s = (s ~ s)|upper %}{% endfor %}"].map(
        (source) => failure(roomy.render(roomy.compile(source), vars, recordingFunctions())),
      );
      for (const error of await Promise.all(renders)) {
        expect(["OVATION_ERR_TEMPLATE_MEMORY", "OVATION_ERR_TEMPLATE_SANDBOX_CRASHED"]).toContain(error.code);
        expect(error.message).toMatch(/memory/);
      }
      expect(process.memoryUsage().heapUsed - hostHeapBefore).toBeLessThan(64 * 1024 * 1024);
      expect(await roomy.render(roomy.compile("alive {{ 1 + 1 }}"), vars, recordingFunctions())).toBe("alive 2");
    } finally {
      await roomy.close();
    }
  });

  it("starts a new sandbox process when it dies; the renders in flight end with a clear outcome", async () => {
    await sandbox.render(sandbox.compile("warm {{ 1 }}"), vars, recordingFunctions());
    const pid = sandbox.sandboxPid as number;
    expect(pid).toBeGreaterThan(0);
    const slow = sandbox.render(sandbox.compile("{{ proxy_pass('https://example.com/') }}"), vars, recordingFunctions(200));
    const spinning = sandbox.render(sandbox.compile(SPIN), vars, recordingFunctions());
    await new Promise((resolve) => setTimeout(resolve, 5));
    const restartsBefore = sandbox.restartCount;
    process.kill(pid, "SIGKILL");
    const error = await failure(spinning);
    expect(["OVATION_ERR_TEMPLATE_SANDBOX_CRASHED", "OVATION_ERR_TEMPLATE_TIMEOUT"]).toContain(error.code);
    await slow.catch(() => undefined);
    expect(await sandbox.render(sandbox.compile("back {{ 2 * 2 }}"), vars, recordingFunctions())).toBe("back 4");
    expect(sandbox.sandboxPid).not.toBe(pid);
    expect(sandbox.restartCount).toBe(restartsBefore + 1);
  });

  it("does not count time spent waiting for template functions against the time limit", async () => {
    const output = await sandbox.render(
      sandbox.compile("{{ proxy_pass('https://example.com/a') }} / {{ proxy_pass('https://example.com/b') }}"),
      vars,
      recordingFunctions(150),
    );
    expect(output).toBe("pong from https://example.com/a / pong from https://example.com/b");
  });

  it("runs each template-function call once, in order, and keeps random() stable across the calls", async () => {
    const functions = recordingFunctions();
    const output = await sandbox.render(
      sandbox.compile(
        "{% set r = random(1, 1000000) %}{{ inc('points', 'alice', 5) }} {{ db('points').alice }} {{ set('points', 'bob', r) == r }} {{ cache('k', 'v') }}{{ cache('k') }} {{ user('alice').view_count }} {{ channel('42').url }}",
      ),
      vars,
      functions,
    );
    expect(output).toBe("5 5 1 vv 7 https://twitch.tv/alice");
    expect(functions.calls.map((c) => c.name)).toEqual(["inc", "db", "set", "cache", "cache", "user", "channel"]);
    const quiet = await sandbox.render(
      sandbox.compile("{% do inc('points', 'alice', 2) %}{% do set('seen', 'alice', true) %}now {{ db('points').alice }}"),
      vars,
      functions,
    );
    expect(quiet).toBe("now 7");
  });

  it("refuses more template-function calls than the limit", async () => {
    const error = await failure(
      sandbox.render(
        sandbox.compile("{% for i in range(0, 50) %}{{ inc('t', 'k') }}{% endfor %}"),
        vars,
        recordingFunctions(),
      ),
    );
    expect(error.code).toBe("OVATION_ERR_TEMPLATE_FUNCTION_LIMIT");
  });

  it("passes a template function's refusal on as a function error with its cause", async () => {
    const error = await failure(
      sandbox.render(sandbox.compile("{{ proxy_pass('http://127.0.0.1:6379/') }}"), vars, recordingFunctions()),
    );
    expect(error.code).toBe("OVATION_ERR_TEMPLATE_FUNCTION");
    expect((error.cause as { code: string }).code).toBe("OVATION_ERR_NET_REFUSED");
  });

  it("caps the output at outputLimit characters after trimming, without splitting a surrogate pair", async () => {
    const small = new TemplateSandbox({ outputLimit: 5 });
    try {
      expect(await small.render(small.compile("  {{ 'abcdefgh' }}  "), vars, recordingFunctions())).toBe("abcde");
      expect(await small.render(small.compile("{{ 'abcd😀' }}"), vars, recordingFunctions())).toBe("abcd");
      expect(await small.render(small.compile("   plain text here  "), vars, recordingFunctions())).toBe("plain");
    } finally {
      await small.close();
    }
    // The default cap, on a sandbox whose time limit a loaded machine cannot reach (the cap is under test, not the clock).
    const roomy = new TemplateSandbox({ timeoutMs: 20_000 });
    try {
      const long = await roomy.render(roomy.compile("{% for i in range(0, 5000) %}spam {% endfor %}"), vars, recordingFunctions());
      expect(long.length).toBeLessThanOrEqual(500);
      expect(long.startsWith("spam spam")).toBe(true);
    } finally {
      await roomy.close();
    }
  });

  it("rejects a render after close() and options out of range", async () => {
    const closing = new TemplateSandbox();
    const compiled = closing.compile("{{ 1 }}");
    await closing.close();
    await expect(closing.render(compiled, vars, recordingFunctions())).rejects.toMatchObject({
      code: "OVATION_ERR_TEMPLATE_SANDBOX_CLOSED",
    });
    expect(() => new TemplateSandbox({ memoryLimitMb: 2 })).toThrow(/memoryLimitMb must be an integer from 8/);
  });

  it("renders plain text without entering the sandbox", async () => {
    const plain = new TemplateSandbox();
    const compiled = plain.compile("  Follow the stream!  ");
    expect(compiled.plain).toBe(true);
    expect(await plain.render(compiled, vars, recordingFunctions())).toBe("Follow the stream!");
    expect(plain.sandboxPid).toBeUndefined();
    await plain.close();
  });
});
