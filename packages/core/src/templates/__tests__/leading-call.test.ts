import { afterAll, describe, expect, it } from "vitest";
import { TemplateRenderError } from "../template-errors.js";
import { TemplateSandbox } from "../template-sandbox.js";
import { compileTwig } from "../twig-compiler.js";
import { CORPUS_TIMEOUT_MS, recordingFunctions, variables } from "./template-test-kit.js";

// A template whose first effect is a template-function call with literal arguments (the usual
// `{{ proxy_pass('https://...') }}`) has that call made by the host before its first pass, so it
// renders in one pass instead of two. Everything else keeps the deterministic replay: a call is
// made only when the template reaches it.

/** Renders `source` and reports the output, the calls made and the passes the sandbox sent. */
async function renderCounting(sandbox: TemplateSandbox, source: string, args: readonly string[] = ["!cmd", "x"]) {
  const functions = recordingFunctions();
  const before = (await sandbox.stats()).passes;
  const output = await sandbox.render(sandbox.compile(source), variables(args), functions);
  return { output, calls: functions.calls.map((c) => [c.name, ...c.args]), passes: (await sandbox.stats()).passes - before };
}

describe("the call a template always makes first", () => {
  const sandbox = new TemplateSandbox({ timeoutMs: CORPUS_TIMEOUT_MS });
  afterAll(() => sandbox.close());

  it("is found only where nothing but text comes before it and its arguments are literals", () => {
    expect(compileTwig("{{ proxy_pass('https://example.com/a') }}").leadingCall).toEqual({ name: "proxy_pass", argsJson: '["https://example.com/a"]' });
    expect(compileTwig("Balance: {{ json('GET', 'https://example.com/b') }} then {{ args[1] }}").leadingCall).toEqual({
      name: "json",
      argsJson: '["GET","https://example.com/b"]',
    });
    for (const source of [
      "{{ args[1] }}{{ proxy_pass('https://example.com/a') }}",
      "{% if args[1] %}{{ proxy_pass('https://example.com/a') }}{% endif %}",
      "{{ proxy_pass('https://example.com/' ~ args[1]) }}",
      "{{ proxy_pass('https://example.com/a')|upper }}",
      "{% set u = 'https://example.com/a' %}{{ proxy_pass(u) }}",
      "{% macro proxy_pass(u) %}mine{% endmacro %}{{ proxy_pass('https://example.com/a') }}",
      "{{ random(1, 6) }}{{ inc('t', 'k') }}",
      "plain text",
    ]) {
      expect(compileTwig(source).leadingCall, source).toBeUndefined();
    }
  });

  it("renders `{{ proxy_pass(url) }}` in one pass with the call made once", async () => {
    const { output, calls, passes } = await renderCounting(sandbox, "  You have: {{ proxy_pass('https://example.com/a') }}");
    expect(output).toBe("You have: pong from https://example.com/a");
    expect(calls).toEqual([["proxy_pass", "https://example.com/a"]]);
    expect(passes).toBe(1);
  });

  it("gives the isolate exactly the arguments it computes itself (quotes, backslashes, unicode, numbers)", async () => {
    const tricky = await renderCounting(sandbox, "{{ set('t', 'a\\\\b \"q\" \u00e9\u{1f600}', 2.5) }}");
    expect(tricky.output).toBe("2.5");
    expect(tricky.calls).toEqual([["set", "t", 'a\\b "q" \u00e9\u{1f600}', 2.5]]);
    expect(tricky.passes).toBe(1);
    const numbers = await renderCounting(sandbox, "{{ inc('t', 7, 3) }}");
    expect(numbers.output).toBe("3");
    expect(numbers.calls).toEqual([["inc", "t", "7", 3]]);
    expect(numbers.passes).toBe(1);
  });

  it("replays later calls as before: one more pass for each", async () => {
    const { output, calls, passes } = await renderCounting(sandbox, "{{ proxy_pass('https://example.com/a') }} / {{ proxy_pass('https://example.com/b') }}");
    expect(output).toBe("pong from https://example.com/a / pong from https://example.com/b");
    expect(calls).toEqual([
      ["proxy_pass", "https://example.com/a"],
      ["proxy_pass", "https://example.com/b"],
    ]);
    expect(passes).toBe(2);
  });

  it("never makes a call the template would not reach", async () => {
    const skipped = await renderCounting(sandbox, "{% if args[1] == 'go' %}{{ proxy_pass('https://example.com/a') }}{% endif %}done");
    expect(skipped).toEqual({ output: "done", calls: [], passes: 1 });
    const reached = await renderCounting(sandbox, "{% if args[1] == 'go' %}{{ proxy_pass('https://example.com/a') }}{% endif %}", ["!cmd", "go"]);
    expect(reached).toEqual({ output: "pong from https://example.com/a", calls: [["proxy_pass", "https://example.com/a"]], passes: 2 });
  });

  it("fails the render with the call's own error when the call fails", async () => {
    const functions = recordingFunctions();
    const error = await sandbox.render(sandbox.compile("{{ proxy_pass('http://127.0.0.1:6379/') }}"), variables(), functions).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TemplateRenderError);
    expect((error as TemplateRenderError).code).toBe("OVATION_ERR_TEMPLATE_FUNCTION");
    expect(((error as TemplateRenderError).cause as { code: string }).code).toBe("OVATION_ERR_NET_REFUSED");
    expect(functions.calls).toEqual([{ name: "proxy_pass", args: ["http://127.0.0.1:6379/"], performed: false }]);
  });

  it("makes no call when the sandbox allows none", async () => {
    const none = new TemplateSandbox({ timeoutMs: CORPUS_TIMEOUT_MS, maxFunctionCalls: 0 });
    try {
      const functions = recordingFunctions();
      const error = await none.render(none.compile("{{ proxy_pass('https://example.com/a') }}"), variables(), functions).then(
        () => null,
        (e: unknown) => e,
      );
      expect((error as TemplateRenderError).code).toBe("OVATION_ERR_TEMPLATE_FUNCTION_LIMIT");
      expect(functions.calls).toEqual([]);
    } finally {
      await none.close();
    }
  });
});
