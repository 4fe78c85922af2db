import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Page } from "playwright-core";

/**
 * Debian's Chromium, which CI installs when missing (.ci/run): OVATION_TEST_CHROMIUM when set, else
 * its headless shell (package chromium-headless-shell) when installed, else the full browser; the
 * same choice as apps/server/src/__tests__/services/chromium.ts, whose CHROMIUM_PATH says why.
 */
export const CHROMIUM_PATH =
  process.env["OVATION_TEST_CHROMIUM"] || (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

const packageDir = fileURLToPath(new URL("../../", import.meta.url));

/** Where screenshots go: `test-results/` at the repository root, kept by CI as an artifact. */
export const TEST_RESULTS_DIR = path.join(packageDir, "..", "..", "test-results");

/**
 * Builds the page's browser assets (dist/assets) so the test serves what the code says now: once per
 * test run (the first file that asks builds, the others reuse its bundle), and not at all when
 * OVATION_TEST_ASSETS_BUILT=1 says the whole build just ran (`npm test`, .ci/run).
 */
export function buildAssets(): void {
  // `npm test` and .ci/run build every package right before vitest and say so: no second build.
  if (process.env["OVATION_TEST_ASSETS_BUILT"] === "1" && existsSync(path.join(packageDir, "dist", "assets", "app.js"))) return;
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

/** Headless Chromium the way CI can run it: no sandbox, no GPU, nothing fetched in the background, sound without a click. */
const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--autoplay-policy=no-user-gesture-required",
];

/**
 * The worker process's one Chromium, on globalThis under a registered symbol: the protocol of
 * launchChromium in apps/server/src/__tests__/services/chromium.ts (which this package's tsconfig
 * cannot import), so the server's, the dashboard's and these files share one browser per worker.
 */
const KEY = Symbol.for("ovation.test.chromium");

type Holder = { [KEY]?: Promise<Browser> };

async function workerBrowser(): Promise<Browser> {
  const holder = globalThis as Holder;
  const current = holder[KEY];
  if (current !== undefined) {
    const browser = await current.catch(() => null);
    if (browser?.isConnected()) return browser;
  }
  const launching = chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  holder[KEY] = launching;
  return launching;
}

/**
 * Chromium for one test file: a handle on the worker's shared browser (launched by the first file
 * that asks; files share their worker process) whose `close()` closes only the contexts the file
 * opened through it, leaving the browser to the next file.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium (apt-get install chromium chromium-headless-shell), as .ci/run does`);
  }
  mkdirSync(TEST_RESULTS_DIR, { recursive: true });
  const browser = await workerBrowser();
  const opened = new Set<BrowserContext>();
  const track = (context: BrowserContext): BrowserContext => {
    opened.add(context);
    context.once("close", () => opened.delete(context));
    return context;
  };
  const handle: Pick<Browser, "newContext" | "newPage" | "close"> = {
    newContext: async (options) => track(await browser.newContext(options)),
    newPage: async (options): Promise<Page> => {
      const page = await browser.newPage(options);
      track(page.context());
      return page;
    },
    close: async () => {
      await Promise.all([...opened].map((context) => context.close().catch(() => undefined)));
      opened.clear();
    },
  };
  return new Proxy(browser, {
    get(target, property) {
      if (property === "newContext" || property === "newPage" || property === "close") return handle[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
