import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SCOPES } from "@ovation/core/contracts";
import { describe, expect, it } from "vitest";
import { DEFAULT_CLI_SCOPES } from "../../auth/scopes.js";
import { HELP_TEXT } from "../help.js";

const docsDir = fileURLToPath(new URL("../../../../../docs/", import.meta.url));

/** The scopes each doc says its calls need ("The token needs the scope `chatbot:manage:timers`."). */
function scopesTheDocsName(): Map<string, string> {
  const named = new Map<string, string>();
  for (const file of readdirSync(docsDir).filter((f) => f.endsWith(".md"))) {
    const text = readFileSync(join(docsDir, file), "utf8");
    for (const match of text.matchAll(/token needs the scope `([a-z:]+)`/g)) if (match[1]) named.set(match[1], file);
  }
  return named;
}

describe("ovation --help and the quick-start token (issue 26, bug 7)", () => {
  it("the help lists every scope a token can carry", () => {
    for (const scope of [...SCOPES, "*"]) expect(HELP_TEXT.split(/\s+/)).toContain(scope);
    expect(HELP_TEXT.split("\n").every((line) => line.length <= 120)).toBe(true);
  });

  it("the quick-start token carries every scope the docs' curl examples need", () => {
    const named = scopesTheDocsName();
    expect([...named.keys()]).toEqual(expect.arrayContaining(["chatbot:manage:timers", "chatbot:manage:giveaways", "widgets:manage", "chatbot:manage:moderation"]));
    for (const [scope, file] of named) expect(DEFAULT_CLI_SCOPES, `${file} needs ${scope}`).toContain(scope);
  });
});
