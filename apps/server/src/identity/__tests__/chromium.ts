import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";

/** Debian's Chromium (scripts/ensure-chromium.mjs installs it when missing). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Headless Chromium for the identity page tests (no sandbox, no GPU, nothing fetched in the background). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}
