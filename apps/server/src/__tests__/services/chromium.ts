import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Page } from "playwright-core";

/** Debian's Chromium (scripts/ensure-chromium.mjs installs it when missing). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Headless Chromium the way CI can run it: no sandbox, no GPU, nothing fetched in the background, sound without a click. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--autoplay-policy=no-user-gesture-required",
];

/**
 * Where the worker's Chromium is kept: on globalThis under a registered symbol, so that every copy
 * of this module (and apps/browser-source/src/__tests__/chromium.ts, which keeps the same protocol
 * because that package's tsconfig cannot import this one) finds the same browser.
 */
const KEY = Symbol.for("ovation.test.chromium");

type Holder = { [KEY]?: Promise<Browser> };

/** The worker process's one Chromium: launched by the first file that asks, relaunched if it died. */
async function workerBrowser(): Promise<Browser> {
  const holder = globalThis as Holder;
  const current = holder[KEY];
  if (current !== undefined) {
    const browser = await current.catch(() => null);
    if (browser?.isConnected()) return browser;
  }
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium (apt-get install chromium, or node scripts/ensure-chromium.mjs)`);
  }
  const launching = chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  holder[KEY] = launching;
  return launching;
}

/**
 * Chromium for one test file. Test files share their worker process (`isolate: false`), and so
 * they share one Chromium: launching it took a second or more of every browser file. What a file
 * gets is a handle on that browser whose `close()` closes the contexts (and their pages) the file
 * opened through it and leaves the browser running for the next file; everything else is the
 * browser's own. Files keep apart as Playwright's contexts do (cookies, storage, permissions).
 * The browser ends with the worker process.
 */
export async function launchChromium(): Promise<Browser> {
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
