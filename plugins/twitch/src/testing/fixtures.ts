import { readFileSync } from "node:fs";

const root = new URL("../../../../fixtures/twitch/", import.meta.url);

/** A raw IRC line of fixtures/twitch/irc-lines.json by name. */
export function ircLine(name: string): string {
  const data = JSON.parse(readFileSync(new URL("irc-lines.json", root), "utf8")) as { lines: Record<string, string> };
  const line = data.lines[name];
  if (line === undefined) throw new Error(`no IRC fixture named ${name}`);
  return line;
}

/** A JSON fixture of fixtures/twitch/eventsub/. */
export function eventSubFixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(new URL(`eventsub/${name}.json`, root), "utf8")) as T;
}
