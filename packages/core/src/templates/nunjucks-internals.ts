import { createRequire } from "node:module";

/**
 * Typed access to the nunjucks parser, lexer, node classes, transformer and compiler. The public
 * nunjucks API only compiles whole templates; the Twig dialect needs to extend the parser and the
 * compiler, which nunjucks exposes as CommonJS modules under `nunjucks/src/`.
 */

/** A lexer token. */
export interface NjToken {
  type: string;
  value: string;
  lineno: number;
  colno: number;
}

/** The nunjucks tokenizer the parser reads from. */
export interface NjTokenizer {
  nextToken(): NjToken | null;
}

/** Any AST node; fields are reached by name through {@link nodeField}. */
export interface NjNode {
  readonly typename: string;
  readonly fields: readonly string[];
  lineno: number;
  colno: number;
  findAll<T extends NjNode>(type: NjNodeClass<T>, results?: T[]): T[];
}

/** A node holding `children` (Root, NodeList, Group, Array, Dict, Output...). */
export interface NjNodeList extends NjNode {
  children: NjNode[];
}

/** A node class; `extend` derives a new node type with its own `typename` and fields. */
export interface NjNodeClass<T extends NjNode = NjNode> {
  new (lineno: number, colno: number, ...fields: unknown[]): T;
  extend(name: string, props?: { fields?: readonly string[] }): NjNodeClass<T>;
}

/** The node classes this package uses. */
export interface NjNodes {
  Node: NjNodeClass;
  NodeList: NjNodeClass<NjNodeList>;
  Root: NjNodeClass<NjNodeList>;
  Symbol: NjNodeClass;
  Literal: NjNodeClass;
  LookupVal: NjNodeClass;
  Group: NjNodeClass<NjNodeList>;
  Array: NjNodeClass<NjNodeList>;
  If: NjNodeClass;
  InlineIf: NjNodeClass;
  Not: NjNodeClass;
  And: NjNodeClass;
  Or: NjNodeClass;
  Filter: NjNodeClass;
  FunCall: NjNodeClass;
  Is: NjNodeClass;
  Include: NjNodeClass;
  Import: NjNodeClass;
  FromImport: NjNodeClass;
  Extends: NjNodeClass;
  Block: NjNodeClass;
  Super: NjNodeClass;
  CallExtension: NjNodeClass;
}

/** The compile-time frame of the nunjucks compiler (maps template names to JS identifiers). */
export interface NjCompileFrame {
  push(isolateWrites?: boolean): NjCompileFrame;
  set(name: string, value: string): void;
  lookup(name: string): string | undefined;
}

/** The nunjucks parser (constructed with a tokenizer). */
export interface NjParser {
  tokens: NjTokenizer;
  peeked: NjToken | null;
  nextToken(withWhitespace?: boolean): NjToken | null;
  peekToken(): NjToken | null;
  pushToken(tok: NjToken | null): void;
  parsePrimary(noPostfix?: boolean): NjNode;
  parsePostfix(node: NjNode): NjNode;
  parseExpression(): NjNode;
  parseAsRoot(): NjNodeList;
  advanceAfterBlockEnd(name?: string): NjToken;
  skip(type: string): boolean;
  skipValue(type: string, value: string): boolean;
  parseUntilBlocks(...names: string[]): NjNodeList;
  /** Tag handlers consulted for block tags nunjucks does not know. */
  extensions: Array<{ tags: readonly string[]; parse(parser: NjParser): NjNode }>;
  fail(message: string, lineno?: number, colno?: number): never;
}

/** The nunjucks compiler. */
export interface NjCompiler {
  compile(node: NjNode, frame?: NjCompileFrame): void;
  getCode(): string;
  _emit(code: string): void;
  _tmpid(): string;
}

/** The error nunjucks throws for syntax problems (1-based line and column once raised by the parser). */
export interface NjTemplateError extends Error {
  lineno?: number;
  colno?: number;
}

const require = createRequire(import.meta.url);

/** nunjucks/src/lexer. */
export const njLexer = require("nunjucks/src/lexer") as {
  lex(src: string, opts?: Record<string, unknown>): NjTokenizer;
  TOKEN_OPERATOR: string;
  TOKEN_SYMBOL: string;
  TOKEN_WHITESPACE: string;
  TOKEN_LEFT_PAREN: string;
  TOKEN_RIGHT_PAREN: string;
  TOKEN_COMMA: string;
  TOKEN_COLON: string;
  TOKEN_VARIABLE_START: string;
  TOKEN_VARIABLE_END: string;
  TOKEN_INT: string;
  TOKEN_FLOAT: string;
  TOKEN_STRING: string;
  TOKEN_COMMENT: string;
  TOKEN_BLOCK_START: string;
  TOKEN_BLOCK_END: string;
  TOKEN_DATA: string;
  TOKEN_LEFT_CURLY: string;
  TOKEN_RIGHT_CURLY: string;
  TOKEN_RIGHT_BRACKET: string;
};
/** nunjucks/src/nodes. */
export const njNodes = require("nunjucks/src/nodes") as NjNodes;
/** nunjucks/src/parser. */
export const njParser = require("nunjucks/src/parser") as { Parser: new (tokens: NjTokenizer) => NjParser };
/** nunjucks/src/compiler. */
export const njCompiler = require("nunjucks/src/compiler") as {
  Compiler: new (templateName: string, throwOnUndefined: boolean) => NjCompiler;
};
/** nunjucks/src/transformer. */
export const njTransformer = require("nunjucks/src/transformer") as {
  transform(ast: NjNode, asyncFilters: readonly string[], name?: string): NjNode;
};

/**
 * The fields of a node that hold children, for walkers: a node's `fields`, plus `body` on the
 * block form of `set` (`{% set x %}...{% endset %}`), which nunjucks keeps outside `fields`.
 */
export function childFields(node: NjNode): readonly string[] {
  return node.typename === "Set" && (node as unknown as { body?: unknown }).body ? [...node.fields, "body"] : node.fields;
}

/** Reads a node's field by name. */
export function nodeField(node: NjNode, name: string): unknown {
  return (node as unknown as Record<string, unknown>)[name];
}

/** Writes a node's field by name. */
export function setNodeField(node: NjNode, name: string, value: unknown): void {
  (node as unknown as Record<string, unknown>)[name] = value;
}

/** True when `value` is an AST node. */
export function isNode(value: unknown): value is NjNode {
  return value instanceof njNodes.Node;
}
