import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";

/** Debian's Chromium, which CI installs when missing (.ci/run). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

const packageDir = fileURLToPath(new URL("../../", import.meta.url));

/** Where screenshots go: `test-results/` at the repository root, kept by CI as an artifact. */
export const TEST_RESULTS_DIR = path.join(packageDir, "..", "..", "test-results");

/**
 * Builds the page's browser assets (dist/assets) so the test serves what the code says now: once per
 * test run (the first file that asks builds, the others reuse its bundle).
 */
export function buildAssets(): void {
  const build = () => execFileSync(process.execPath, [path.join(packageDir, "build.mjs")], { cwd: packageDir, stdio: "pipe", timeout: 120_000 });
  // The run's services directory (vitest's global setup) and the protocol of `oncePerRun` in
  // apps/server/src/__tests__/services/shared-service.ts, which this package's tsconfig cannot
  // import (its rootDir is src): `<name>.lock` taken by the builder, `<name>.done` or `.failed` after.
  const dir = process.env["OVATION_TEST_SERVICES_DIR"];
  if (dir === undefined || !existsSync(dir)) return void build();
  const name = path.join(dir, "browser-source-assets");
  try {
    mkdirSync(`${name}.lock`);
  } catch {
    const deadline = Date.now() + 300_000;
    while (!existsSync(`${name}.done`)) {
      if (existsSync(`${name}.failed`)) throw new Error(`building the page's assets failed in another test file: ${readFileSync(`${name}.failed`, "utf8")}`);
      if (Date.now() > deadline) throw new Error("building the page's assets did not finish within 300 s in another test file");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
    return;
  }
  try {
    build();
  } catch (error) {
    writeFileSync(`${name}.failed`, (error as Error).message);
    throw error;
  }
  writeFileSync(`${name}.done`, "");
}

/** Launches headless Chromium the way CI can run it (no sandbox, no GPU, sound allowed without a click). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium (apt-get install chromium), as .ci/run does`);
  }
  mkdirSync(TEST_RESULTS_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
}
