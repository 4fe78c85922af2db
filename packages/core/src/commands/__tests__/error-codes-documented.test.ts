import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NET_ERROR_CODES } from "../../net/net-error.js";
import { COMMAND_ERROR_CODES } from "../command-error.js";

const docs = (name: string) => readFileSync(new URL(`../../../../../docs/${name}`, import.meta.url), "utf8");

describe("error codes of commands and outbound calls", () => {
  it.each(Object.values(COMMAND_ERROR_CODES))("%s is documented in docs/commands.md", (code) => {
    expect(docs("commands.md")).toContain(code);
  });
  it.each(Object.values(NET_ERROR_CODES))("%s is documented in docs/outbound.md", (code) => {
    expect(docs("outbound.md")).toContain(code);
  });
});
