import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { ERROR_CODES } from "../errors.js";

const srcDir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");

// The identity module and the platform-plugin loader keep their own error registries.
const OTHER_AREAS = new Set(["__tests__", "identity", "plugins"]);
const OTHER_FILES = new Set(["cli/client.ts", "cli/chat.ts"]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return OTHER_AREAS.has(name) ? [] : sources(path);
    return path.endsWith(".ts") && !OTHER_FILES.has(path.slice(srcDir.length)) ? [path] : [];
  });
}

describe("error-code registry", () => {
  test("every code follows OVATION_ERR_<AREA>_<WHAT> and is documented in the README with its status", () => {
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^OVATION_ERR_[A-Z0-9]+_[A-Z0-9_]+$/);
      const row = readme.split("\n").find((line) => line.includes(`\`${code}\``));
      expect(row, `${code} is missing from apps/server/README.md`).toBeDefined();
      expect(row).toContain(String(entry.status));
    }
  });

  test("every OVATION_ERR code the server's source names is in the registry", () => {
    const known = new Set(Object.keys(ERROR_CODES));
    const used = new Set(sources(srcDir).flatMap((file) => readFileSync(file, "utf8").match(/OVATION_ERR_[A-Z0-9_]+/g) ?? []));
    const missing = [...used].filter((code) => !known.has(code));
    expect(missing).toEqual([]);
  });
});
