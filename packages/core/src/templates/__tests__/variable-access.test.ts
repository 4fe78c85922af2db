import { afterAll, describe, expect, it } from "vitest";
import { parseTwig } from "../twig-parser.js";
import { TemplateSandbox } from "../template-sandbox.js";
import type { AccessNeed } from "../variable-access.js";
import { prunedJson, variableAccess } from "../variable-access.js";
import { CORPUS_TIMEOUT_MS, recordingFunctions, variables } from "./template-test-kit.js";

function plain(need: ReadonlyMap<string, AccessNeed>): unknown {
  return Object.fromEntries([...need].map(([k, v]) => [k, v === true ? true : plain(v)]));
}
const access = (source: string): unknown => plain(variableAccess(parseTwig(source)));

describe("what a template reads of its variables", () => {
  it("narrows literal lookup chains and keeps everything else whole", () => {
    expect(access("{{ event.user.username }} {{ args[1] }}")).toEqual({ event: { user: { username: true } }, args: { "1": true } });
    expect(access("{{ event.user.username }}{{ event.user|length }}")).toEqual({ event: { user: true } });
    expect(access("{{ event['user'].badges|filter(b => b.type == 'x') }}")).toEqual({ event: { user: { badges: true } } });
    expect(access("{% set k = 'user' %}{{ event[k] }}")).toEqual({ event: true });
    expect(access("{% set e = event %}{{ e.user }}")).toEqual({ event: true });
    expect(access("{{ irc|dump }} {{ command.command }}")).toEqual({ irc: true, command: { command: true } });
    expect(access("no variables {{ 1 + 1 }}")).toEqual({});
  });

  it("keeps arrays, primitives and objects missing a needed key whole", () => {
    const event = { user: { username: "a", badges: [{ type: "x" }], color: null }, message: "m" };
    const need = variableAccess(parseTwig("{{ event.user.username }}{{ event.user.badges[0].type }}")).get("event") as AccessNeed;
    expect(prunedJson(event, need)).toBe(JSON.stringify({ user: { username: "a", badges: [{ type: "x" }] } }));
    const missing = variableAccess(parseTwig("{{ event.platform_data.x }}")).get("event") as AccessNeed;
    expect(prunedJson(event, missing)).toBe(JSON.stringify(event));
  });

  it("writes the JSON JSON.stringify writes for the pruned value: escaped keys, no undefined, whole values", () => {
    const value = { 'say "hi"': "x\n", gone: undefined, fn: () => 1, n: 1, nested: { a: [1, { b: 2 }], c: null } };
    const need: AccessNeed = new Map<string, AccessNeed>([
      ['say "hi"', true],
      ["gone", true],
      ["fn", true],
      ["nested", new Map<string, AccessNeed>([["a", true], ["c", true]])],
    ]);
    expect(prunedJson(value, need)).toBe(JSON.stringify({ 'say "hi"': "x\n", nested: { a: [1, { b: 2 }], c: null } }));
    expect(prunedJson(undefined, true)).toBeUndefined();
    expect(prunedJson([{ a: 1 }], new Map([["0", true]]))).toBe('[{"a":1}]');
    expect(prunedJson("text", new Map([["length", true]]))).toBe('"text"');
  });
});

describe("rendering with only the variables a template reads", () => {
  // What the templates answer is under test here, not the clock: a time limit a loaded CI machine cannot hit.
  const sandbox = new TemplateSandbox({ timeoutMs: CORPUS_TIMEOUT_MS });
  afterAll(() => sandbox.close());
  const vars = variables(["!hug", "alice"], ["subscriber"]);
  const render = (source: string) => sandbox.render(sandbox.compile(source), vars, recordingFunctions());

  it("renders the same as with whole variables, for the shapes that could differ", async () => {
    expect(await render("{{ event.user.username }} {{ event.user|keys|join(',') }}")).toBe(
      "viewer42 platform_id,username,avatar_url,color,badges",
    );
    expect(await render("{% for k, v in event.user %}{{ k }} {% endfor %}")).toBe("platform_id username avatar_url color badges");
    expect(await render("{{ event.user.username.length }} {{ args|length }} {{ args[0] }}")).toBe("8 2 !hug");
    expect(await render("{{ (event.attributes.edited ?? 'unset')|json_encode }} {{ event.parent ?? 'no parent' }}")).toBe("false no parent");
    expect(await render("{{ event.user.hasOwnProperty('username') }} {{ event.user.hasOwnProperty('color') }}")).toBe("1 1");
    expect(await render("{% set e = event %}{{ e.channel.username }}")).toBe("streamer");
    expect(await render("{{ command.command }}/{{ irc.channel }}/{{ event.platform_data.anything ?? 'none' }}")).toBe(
      "hug/#streamer/none",
    );
  });
});
