import { createRequire } from "node:module";

/** An IRC line as tmi.js's parser returns it: tag values still IRC-escaped, `true` for a tag without value. */
export interface IrcMessage {
  raw: string;
  tags: Record<string, string | true>;
  prefix: string | null;
  command: string | null;
  params: string[];
}

interface TmiParser {
  msg(line: string): IrcMessage | null;
}

// tmi.js ships its IRC parser as lib/parser.js (CommonJS, no types): the same parse tmi.js runs on
// every line, so the bench floor and our normalization start from identical input.
const tmiParser = createRequire(import.meta.url)("tmi.js/lib/parser.js") as TmiParser;

/** Parses one raw IRC line with tmi.js's parser; null for a malformed line. */
export function parseIrcLine(line: string): IrcMessage | null {
  return tmiParser.msg(line);
}

/** Reads a tag as a string ('' when absent or valueless). */
export function tag(message: IrcMessage, name: string): string {
  const value = message.tags[name];
  return typeof value === "string" ? value : "";
}

/** Unescapes an IRCv3 tag value (`\s` space, `\:` semicolon, `\\` backslash, `\r`, `\n`). */
export function unescapeTag(value: string): string {
  if (!value.includes("\\")) return value;
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = value[++i];
    if (next === undefined) break;
    out += next === "s" ? " " : next === ":" ? ";" : next === "r" ? "\r" : next === "n" ? "\n" : next;
  }
  return out;
}
