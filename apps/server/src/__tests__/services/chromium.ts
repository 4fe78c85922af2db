import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Page } from "playwright-core";

/** Debian's Chromium, the full browser (scripts/ensure-chromium.mjs installs it when missing). */
export const CHROMIUM_BROWSER_PATH = "/usr/bin/chromium";

/**
 * Debian's Chromium headless shell (package chromium-headless-shell, the same Chromium release):
 * Chromium's "old" headless mode, built for automation, which Playwright itself runs for headless
 * tests. It renders the same pages with less work than the full browser's headless mode (the
 * dashboard's page walk: tests 47.5 and 48.3 s with the full browser, 34.8 and 32.7 s with the
 * shell, alternating runs on the loaded machine; issue 29).
 */
export const CHROMIUM_SHELL_PATH = "/usr/bin/chromium-headless-shell";

/**
 * The Chromium the tests drive: `OVATION_TEST_CHROMIUM` when set (`/usr/bin/chromium` runs them in
 * the full browser), else the headless shell when installed (.ci/run and scripts/ensure-chromium.mjs
 * install it), else the full browser.
 */
export const CHROMIUM_PATH = process.env["OVATION_TEST_CHROMIUM"] || (existsSync(CHROMIUM_SHELL_PATH) ? CHROMIUM_SHELL_PATH : CHROMIUM_BROWSER_PATH);

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
 * because that package's tsconfig cannot import this one) finds the same browser. The full browser,
 * when a file asks for it beside the headless shell, is kept under a symbol of its own.
 */
const KEY = Symbol.for("ovation.test.chromium");
const FULL_KEY = Symbol.for("ovation.test.chromium.full");

type Holder = { [KEY]?: Promise<Browser>; [FULL_KEY]?: Promise<Browser> };

/** The worker process's Chromium at `executablePath`: launched by the first file that asks, relaunched if it died. */
async function workerBrowser(executablePath: string): Promise<Browser> {
  const holder = globalThis as Holder;
  const key = executablePath === CHROMIUM_PATH ? KEY : FULL_KEY;
  const current = holder[key];
  if (current !== undefined) {
    const browser = await current.catch(() => null);
    if (browser?.isConnected()) return browser;
  }
  if (!existsSync(executablePath)) {
    throw new Error(`${executablePath} is missing: install Debian's chromium (apt-get install chromium, or node scripts/ensure-chromium.mjs)`);
  }
  const launching = chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
  holder[key] = launching;
  return launching;
}

/**
 * Chromium for one test file. Test files share their worker process (`isolate: false`), and so
 * they share one Chromium: launching it took a second or more of every browser file. What a file
 * gets is a handle on that browser whose `close()` closes the contexts (and their pages) the file
 * opened through it and leaves the browser running for the next file; everything else is the
 * browser's own. Files keep apart as Playwright's contexts do (cookies, storage, permissions).
 * The browser ends with the worker process.
 *
 * `fullBrowser` gives the full Chromium instead of the headless shell (when both are installed), for
 * files whose routes must see where a server's redirect leads: in the headless shell (Chromium 156,
 * Playwright 1.65) `page.route`/`context.route` never see a redirect's target, so the identity tests,
 * which answer the OAuth client's redirect URI with a route, would wait for a callback that never comes.
 */
export async function launchChromium(options: { fullBrowser?: boolean } = {}): Promise<Browser> {
  const browser = await workerBrowser(options.fullBrowser === true && !process.env["OVATION_TEST_CHROMIUM"] ? CHROMIUM_BROWSER_PATH : CHROMIUM_PATH);
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
