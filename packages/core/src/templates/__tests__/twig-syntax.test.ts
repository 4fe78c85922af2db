import { describe, expect, it } from "vitest";
import { TemplateSyntaxError } from "../template-errors.js";
import { checkTemplateSyntax } from "../check-template-syntax.js";
import { isPlainText } from "../plain-text.js";
import { MAX_TEMPLATE_SOURCE_LENGTH, compileTwig } from "../twig-compiler.js";

function syntaxError(source: string): TemplateSyntaxError {
  try {
    compileTwig(source);
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateSyntaxError);
    return error as TemplateSyntaxError;
  }
  throw new Error(`expected a syntax error for ${source}`);
}

describe("Twig syntax is checked when a command is saved", () => {
  it("reports an unknown filter with its line and column", () => {
    const error = syntaxError("Hello\n  {{ name|shout }}");
    expect(error.code).toBe("OVATION_ERR_TEMPLATE_SYNTAX");
    expect(error.line).toBe(2);
    expect(error.column).toBe(11);
    expect(error.message).toContain('unknown filter "shout"');
  });

  it("reports a malformed expression at the offending token", () => {
    const error = syntaxError("{{ a b }}");
    expect(error.line).toBe(1);
    expect(error.column).toBe(6);
  });

  it("reports an if that is never closed at the end of the source", () => {
    const error = syntaxError("{% if x %}\nyes");
    expect(error.message).toMatch(/endif/);
    expect([error.line, error.column]).toEqual([2, 4]);
  });

  it("refuses include, import and extends with a message naming the tag", () => {
    expect(syntaxError('{% include "x" %}').message).toContain("{% include %} is not available");
    expect(syntaxError('{% import "x" as y %}').message).toContain("{% import %} is not available");
    expect(syntaxError('{% extends "x" %}').message).toContain("{% extends %} is not available");
  });

  it("refuses unknown tests and duplicate arrow parameters", () => {
    expect(syntaxError("{% if x is shiny %}{% endif %}").message).toContain('unknown test "shiny"');
    expect(syntaxError("{{ xs|reduce((a, a) => a) }}").message).toContain("declared twice");
  });

  it("refuses a source over the length limit", () => {
    expect(syntaxError("a".repeat(MAX_TEMPLATE_SOURCE_LENGTH + 1)).message).toContain("limit");
  });

  it("turns a parser stack overflow into a syntax error", () => {
    const deep = `{{ ${"[".repeat(4000)}${"]".repeat(4000)} }}`;
    const result = checkTemplateSyntax(deep);
    if (!result.ok) expect(result.error.code).toBe("OVATION_ERR_TEMPLATE_SYNTAX");
  });

  it("accepts the Twig forms: elseif, ~, arrows, ranges, set blocks, for-else, comments", () => {
    for (const source of [
      "{% if a %}1{% elseif b %}2{% else %}3{% endif %}",
      "{{ 'a' ~ b ~ 1 }}",
      "{{ xs|filter(x => x > 1)|map((v, k) => k ~ v)|reduce((c, v) => c + v, 0) }}",
      "{% for i in 1..3 %}{{ i }}{% else %}none{% endfor %}",
      "{% set greeting %}hi {{ name }}{% endset %}{{ greeting }}",
      "{# a comment #}{{- x -}}",
    ]) {
      expect(checkTemplateSyntax(source)).toEqual({ ok: true });
    }
  });

  it("lists the template functions a source names", () => {
    expect(compileTwig("{{ db('points').alice }}{{ inc('points', 'alice', 1) }}").functions).toEqual(["db", "inc"]);
    expect(compileTwig("plain {{ 1 + 1 }}").functions).toEqual([]);
  });
});

describe("isPlainText", () => {
  it("is true for text without template syntax", () => {
    expect(isPlainText("Follow the stream at example.com! {not a tag}")).toBe(true);
  });
  it("is false as soon as {{, {% or {# appears", () => {
    expect(isPlainText("hi {{ name }}")).toBe(false);
    expect(isPlainText("{% if x %}{% endif %}")).toBe(false);
    expect(isPlainText("{# note #}")).toBe(false);
  });
});
