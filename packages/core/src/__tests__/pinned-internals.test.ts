import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { LogicEngine } from "json-logic-engine";
import { describe, expect, it } from "vitest";
import { compileCondition } from "../alerts/conditions.js";
import { njCompiler, njLexer, njNodes, njParser, njTransformer } from "../templates/nunjucks-internals.js";

/**
 * json-logic-engine and nunjucks are patched through private internals (alerts/conditions.ts,
 * templates/nunjucks-internals.ts, twig-parser.ts, twig-compiler.ts and the isolate script). Both
 * are pinned to exact versions in packages/core/package.json; these tests fail, naming the package
 * and what moved, when an upgrade changes what that code relies on.
 */
const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  dependencies: Record<string, string>;
};

function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!readFileSyncSafe(join(dir, "package.json"))?.includes(`"name": "${name}"`)) dir = dirname(dir);
  return dir;
}

function readFileSyncSafe(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(packageDir(name), "package.json"), "utf8")) as { version: string }).version;
}

/** Fails with a message naming the package, its version and the internal that moved. */
function internal(pkg: string, what: string, ok: boolean): void {
  if (!ok) {
    throw new Error(
      `${pkg} ${installedVersion(pkg)}: private internal changed: ${what}. Ovation patches it; update the patching code before moving the pin in packages/core/package.json.`,
    );
  }
}

const hasMethods = (proto: unknown, names: readonly string[]): string[] =>
  names.filter((name) => typeof (proto as Record<string, unknown>)[name] !== "function");

describe("pinned packages whose internals are patched", () => {
  for (const name of ["json-logic-engine", "nunjucks"]) {
    it(`${name} is pinned to an exact version, and that version is installed`, () => {
      const pin = manifest.dependencies[name];
      expect(pin, `${name} must be pinned to an exact version (no ^ or ~): its private internals are patched`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(installedVersion(name), `${name}: package.json pins ${pin} but another version is installed`).toBe(pin);
    });
  }

  it("nunjucks: the parser, lexer, node, compiler and transformer internals are where the Twig dialect expects them", () => {
    const pkg = "nunjucks";
    const parserMissing = hasMethods(njParser.Parser.prototype, [
      "nextToken", "peekToken", "parsePrimary", "parseExpression", "parseAsRoot", "advanceAfterBlockEnd", "fail",
      "parseCompare", "parseConcat", "parsePostfix", "parseUnary", "parseAnd", "parseNot", "parseSignature",
      "parseFilterName", "parseFilterArgs", "parseUntilBlocks",
    ]);
    internal(pkg, `nunjucks/src/parser Parser.prototype lacks ${parserMissing.join(", ")}`, parserMissing.length === 0);
    const parser = new njParser.Parser(njLexer.lex("{{ a }}", {}));
    internal(pkg, "Parser instances no longer have the tokens/peeked/extensions fields", "tokens" in parser && "peeked" in parser && Array.isArray(parser.extensions));
    const compilerMissing = hasMethods(njCompiler.Compiler.prototype, ["compile", "getCode", "_emit", "_tmpid", "_compileExpression", "compileConcat", "compilePair", "compileIn"]);
    internal(pkg, `nunjucks/src/compiler Compiler.prototype lacks ${compilerMissing.join(", ")}`, compilerMissing.length === 0);
    internal(pkg, "nunjucks/src/lexer lex() is gone", typeof njLexer.lex === "function");
    for (const token of ["TOKEN_OPERATOR", "TOKEN_SYMBOL", "TOKEN_WHITESPACE", "TOKEN_LEFT_PAREN", "TOKEN_RIGHT_PAREN", "TOKEN_COMMA", "TOKEN_COLON", "TOKEN_VARIABLE_START", "TOKEN_VARIABLE_END", "TOKEN_INT", "TOKEN_FLOAT", "TOKEN_STRING", "TOKEN_COMMENT", "TOKEN_BLOCK_START", "TOKEN_LEFT_CURLY", "TOKEN_RIGHT_CURLY", "TOKEN_RIGHT_BRACKET"] as const) {
      internal(pkg, `nunjucks/src/lexer ${token} is gone`, typeof njLexer[token] === "string");
    }
    internal(pkg, "nunjucks/src/transformer transform() is gone", typeof njTransformer.transform === "function");
    // The Twig lexer (twig-lexer.ts) reads and advances the tokenizer's position.
    const tokenizer = njLexer.lex("{{ a }}", { trimBlocks: true }) as unknown as Record<string, unknown>;
    internal(
      pkg,
      "the tokenizer no longer has str/index/in_code/lineno/colno/forward()",
      typeof tokenizer["str"] === "string" && typeof tokenizer["index"] === "number" && typeof tokenizer["in_code"] === "boolean" &&
        typeof tokenizer["lineno"] === "number" && typeof tokenizer["colno"] === "number" && typeof tokenizer["forward"] === "function",
    );
    // The block form of set keeps its body outside `fields` (walkers read it through childFields).
    const setBlock = new njParser.Parser(njLexer.lex("{% set x %}y{% endset %}", {})).parseAsRoot().children[0] as unknown as { typename: string; body?: unknown };
    internal(pkg, "{% set %}...{% endset %} no longer keeps its Capture in `body`", setBlock.typename === "Set" && setBlock.body !== undefined);
    const fields: Record<string, readonly string[]> = {
      If: ["cond", "body", "else_"], InlineIf: ["cond", "body", "else_"], Not: ["target"], And: ["left", "right"], Or: ["left", "right"],
      Filter: ["name", "args"], Is: ["left", "right"], Symbol: ["value"], Literal: ["value"], LookupVal: ["target", "val"], FunCall: ["name", "args"],
      Concat: ["left", "right"], Capture: ["body"], Output: ["children"], Set: ["targets", "value"], KeywordArgs: ["children"], Pair: ["key", "value"],
      TemplateData: ["value"], Neg: ["target"], Pos: ["target"], Pow: ["left", "right"], Import: ["template", "target"], FromImport: ["template", "names"],
      For: ["arr", "name", "body", "else_"], Macro: ["name", "args", "body"], Dict: ["children"],
    };
    for (const [node, expected] of Object.entries(fields)) {
      const type = (njNodes as unknown as Record<string, { prototype: { fields?: string[] } } | undefined>)[node];
      const actual = type?.prototype.fields ?? [];
      internal(pkg, `nunjucks/src/nodes ${node} fields are now [${actual.join(", ")}], expected to include ${expected.join(", ")}`, expected.every((f) => actual.includes(f)));
    }
    internal(pkg, "nunjucks/src/nodes Node.extend is gone", typeof njNodes.Node.extend === "function");
    for (const name of ["filters", "tests"]) {
      internal(pkg, `nunjucks/src/${name} no longer exports an object of functions`, typeof require(`nunjucks/src/${name}`) === "object");
    }
    const slim = readFileSync(require.resolve("nunjucks/browser/nunjucks-slim.min.js"), "utf8");
    for (const needle of ["SafeString", "Environment", "Template"]) {
      internal(pkg, `browser/nunjucks-slim.min.js no longer mentions ${needle} (the sandbox runtime)`, slim.includes(needle));
    }
  });

  it("json-logic-engine: the compile hooks, symbols, method table and truthiness hook the conditions patch are there", () => {
    const pkg = "json-logic-engine";
    const source = readFileSync(join(packageDir(pkg), "dist", "esm", "index.js"), "utf8");
    internal(pkg, "Symbol.for('json_logic_compiled') marker of generated code", source.includes("Symbol.for('json_logic_compiled')"));
    internal(pkg, "Symbol.for('json_logic_sync') marker of sync functions", source.includes("Symbol.for('json_logic_sync')"));
    internal(pkg, "the `prev` scratch variable of generated code (let prev;)", source.includes("'let prev;'"));
    const engine = new LogicEngine() as unknown as { methods: Record<string, unknown>; truthy: unknown; build: unknown; run: unknown };
    internal(pkg, "engine.methods is no longer an object of operators", typeof engine.methods === "object" && engine.methods !== null);
    const missing = ["and", "or", "!", "!!", "if", "in", "==", ">", "all", "missing"].filter((op) => !(op in engine.methods));
    internal(pkg, `engine.methods lacks ${missing.join(", ")}`, missing.length === 0);
    internal(pkg, "engine.truthy is no longer a replaceable function", typeof engine.truthy === "function");
    internal(pkg, "engine.build / engine.run are gone", typeof engine.build === "function" && typeof engine.run === "function");
    // The patched engine still compiles to the answers of its interpreter.
    const cases: Array<[Record<string, unknown>, Record<string, unknown>, boolean]> = [
      [{ and: [{ ">": [{ var: "a" }, 1] }, { "<": [1, { var: "a" }, 5] }] }, { a: 3 }, true],
      [{ or: [{ "!": [{ var: "a" }] }, { in: [{ var: "b" }, ["x", "y"]] }] }, { a: 1, b: "y" }, true],
      [{ if: [{ "!!": [{ var: "a" }] }, false, true] }, { a: [] }, true],
    ];
    for (const [rule, data, expected] of cases) {
      internal(pkg, `compiled code answers ${JSON.stringify(rule)} differently`, compileCondition(rule)(data) === expected);
    }
  });
});
