import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";
// The run-wide "do it once" of the server's test services: shared, not copied.
import { oncePerRun } from "../../../server/src/__tests__/services/shared-service.js";

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
  oncePerRun("browser-source-assets", () => execFileSync(process.execPath, [path.join(packageDir, "build.mjs")], { cwd: packageDir, stdio: "pipe", timeout: 120_000 }));
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
