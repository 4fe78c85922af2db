import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, loadConfig } from "@ovation/server";
import type { BuildAppOptions, OvationApp } from "@ovation/server";
import type { ManagerRole } from "@ovation/core/api";
import { expect } from "vitest";
import type { Browser, BrowserContext, Cookie, Page } from "playwright-core";
// The server's own test helpers (real SMTP on loopback, the password hash of accounts): shared, not copied.
import { hashPassword } from "../../../server/src/identity/accounts/passwords.js";
import { startSmtp } from "../../../server/src/identity/__tests__/harness.js";
import { oncePerRun } from "../../../server/src/__tests__/services/shared-service.js";
import { CHROMIUM_PATH, launchChromium } from "../../../server/src/__tests__/services/chromium.js";
import { freePort } from "../../../server/src/__tests__/services/free-port.js";

const packageDir = fileURLToPath(new URL("../../", import.meta.url));

/** Screenshots of every page: `test-results/dashboard/` at the repository root (gitignored, kept by CI). */
export const SCREENSHOT_DIR = path.join(packageDir, "..", "..", "test-results", "dashboard");

/** The four ways every page is photographed. */
export const VIEWS = [
  { name: "desktop-light", viewport: { width: 1280, height: 720 }, colorScheme: "light" },
  { name: "desktop-dark", viewport: { width: 1280, height: 720 }, colorScheme: "dark" },
  { name: "phone-light", viewport: { width: 390, height: 844 }, colorScheme: "light" },
  { name: "phone-dark", viewport: { width: 390, height: 844 }, colorScheme: "dark" },
] as const;

/** One of {@link VIEWS}. */
export type View = (typeof VIEWS)[number];

/**
 * Builds the dashboard's and the browser-source page's browser assets, so the test serves what the
 * code says now: once per test run (the first file that asks builds, the others reuse its bundles),
 * and not at all when OVATION_TEST_ASSETS_BUILT=1 says the whole build just ran (`npm test`, .ci/run).
 */
export function buildAssets(): void {
  for (const [name, dir] of [["dashboard-assets", packageDir], ["browser-source-assets", path.join(packageDir, "..", "browser-source")]] as const) {
    // `npm test` and .ci/run build every package right before vitest and say so: no second build.
    if (process.env["OVATION_TEST_ASSETS_BUILT"] === "1" && existsSync(path.join(dir, "dist", "assets", "app.js"))) continue;
    oncePerRun(name, () => execFileSync(process.execPath, [path.join(dir, "build.mjs")], { cwd: dir, stdio: "pipe", timeout: 180_000 }));
  }
}


/** A JSON call to the API as the test user's personal access token. */
export type ApiCall = <T = Record<string, unknown>>(method: string, route: string, body?: unknown) => Promise<{ status: number; body: T }>;

/** The real server on 127.0.0.1 with the dashboard, a user with a password, Chromium and helpers. */
export interface DashboardHarness {
  app: OvationApp;
  /** `http://127.0.0.1:<port>`: the public URL and the identity host. */
  base: string;
  /** `<base>/dashboard`. */
  dashboard: string;
  browser: Browser;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  user: { id: number; name: string; email: string; password: string; token: string };
  /** The API as the user's personal access token (set-up and checks beside the browser). */
  api: ApiCall;
  /** A new browser context and page in a view (viewport and colour scheme); console errors are collected. */
  open(view?: View): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  /**
   * Another account with a password and a verified address (`<name>@example.com`), managing the
   * streamer's channel with `manages` when given.
   */
  addAccount(name: string, options?: { manages?: ManagerRole; password?: string }): Promise<DashboardAccount>;
  /**
   * Signs `page` in, starting at the dashboard path `at`, as the streamer or as `account`; resolves
   * on the shell. An account's first sign-in goes through the identity pages' form; later ones reuse
   * its identity session (the authorization server's cookies), so they skip the form unless that
   * session ended.
   */
  signIn(page: Page, at?: string, account?: Pick<DashboardAccount, "email" | "password">): Promise<void>;
  /**
   * Shows one tab in each of `views` in turn, signed in at the dashboard path `at` (as the streamer
   * or `account`): the tab takes the view's viewport and colour scheme, then loads `at` again, as a
   * new tab in that view would load it; it keeps its dashboard session, so the sign-in runs once, not
   * once a view. Yields each view once the page has loaded in it.
   */
  eachView(page: Page, at: string, views?: readonly View[], account?: Pick<DashboardAccount, "email" | "password">): AsyncGenerator<View>;
  /**
   * Closes the toasts shown with their × button, as a user would: a success toast stays 5 seconds in
   * the bottom corner, and a click on what it covers waits until it has gone.
   */
  dismissToasts(page: Page): Promise<void>;
  /** Switches the signed-in manager to a channel they manage (`label`: "streamer (editor)"). */
  switchChannel(page: Page, label: string): Promise<void>;
  /** Saves `<name>.png` (what the viewport shows) and `<name>.full.png` (the whole page) under {@link SCREENSHOT_DIR}. */
  screenshot(page: Page, name: string): Promise<string>;
  /** The 6-digit code of the last EAT mail to the user. */
  lastEatCode(count?: number): Promise<string>;
  close(): Promise<void>;
}

/** An account of {@link DashboardHarness.addAccount}. */
export interface DashboardAccount {
  id: number;
  uuid: string;
  name: string;
  email: string;
  password: string;
}

/** The password of the accounts {@link DashboardHarness.addAccount} makes (the streamer has another). */
export const ACCOUNT_PASSWORD = "another horse battery staple";

/** Starts everything; `buildAssets()` first when the test needs the current bundle. */
export async function startDashboard(options: { platforms?: BuildAppOptions["platforms"]; identity?: BuildAppOptions["identity"]; botModules?: BuildAppOptions["botModules"] } = {}): Promise<DashboardHarness> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium (node scripts/ensure-chromium.mjs)`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const dataDir = await mkdtemp(path.join(tmpdir(), "ovation-dashboard-"));
  const smtp = await startSmtp();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    HOST: "127.0.0.1",
    OVATION_DATA_DIR: dataDir,
    OVATION_PUBLIC_URL: base,
    OVATION_LOG_LEVEL: "silent",
    OVATION_RATE_LIMIT_PER_MINUTE: "100000",
  });
  const app = await buildApp({
    config,
    platforms: options.platforms ?? false,
    identity: { ...options.identity, idUrl: base, smtpUrl: `smtp://127.0.0.1:${smtp.port}` },
    ...(options.botModules ? { botModules: options.botModules } : {}),
  });
  await app.listen({ host: "127.0.0.1", port });
  const password = "correct horse battery staple";
  const email = "streamer@example.com";
  const record = app.ovation.repos.users.create({ name: "streamer", email, email_verified_at: new Date().toISOString(), password_hash: await hashPassword(password) });
  const token = app.ovation.repos.tokens.create({ user_id: record.id, name: "dashboard tests", scopes: ["*"] }).token;
  // The worker's shared Chromium; close() below closes this file's contexts, not the browser.
  const browser = await launchChromium();

  /** Cookies of the identity session of the last sign-in through the form (see `signIn`). */
  const identitySessions = new Map<string, Cookie[]>();

  const api: ApiCall = async <T = Record<string, unknown>>(method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as T };
  };
  // One hash per password: hashing is slow on purpose.
  const hashes = new Map<string, Promise<string>>();

  const harness: DashboardHarness = {
    app,
    base,
    dashboard: `${base}/dashboard`,
    browser,
    smtp,
    user: { id: record.id, name: "streamer", email, password, token },
    api,
    async open(view = VIEWS[0]) {
      const context = await browser.newContext({ viewport: view.viewport, colorScheme: view.colorScheme, reducedMotion: "reduce" });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      return { context, page, errors };
    },
    async addAccount(name, { manages, password: own = ACCOUNT_PASSWORD } = {}) {
      let hash = hashes.get(own);
      if (hash === undefined) hashes.set(own, (hash = hashPassword(own)));
      const account = app.ovation.repos.users.create({ name, email: `${name}@example.com`, email_verified_at: new Date().toISOString(), password_hash: await hash });
      if (manages !== undefined) app.ovation.repos.managers.grant(record.id, account.id, manages);
      return { id: account.id, uuid: account.uuid, name, email: `${name}@example.com`, password: own };
    },
    async signIn(page, at = "/", account = { email, password }) {
      // The identity session of this account's last sign-in through the form, when there is one: the
      // authorization server then answers the dashboard's code + PKCE request at once (no form, no
      // password hash), as it does for a streamer who signed in before. A session that ended (signed
      // out, password changed) shows the form again, which is then filled in.
      const session = identitySessions.get(account.email) ?? [];
      if (session.length > 0) await page.context().addCookies(session);
      await page.goto(`${base}/dashboard${at === "/" ? "" : at}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      const shell = page.locator("main h1.page-title");
      const emailField = page.getByLabel("Email address");
      await shell.or(emailField).first().waitFor({ timeout: 30_000 });
      if (await shell.isVisible()) return;
      await emailField.fill(account.email);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await shell.waitFor({ timeout: 30_000 });
      identitySessions.set(account.email, (await page.context().cookies(base)).filter((cookie) => !cookie.name.startsWith("_interaction")));
    },
    async *eachView(page, at, views = VIEWS, account) {
      for (const [i, view] of views.entries()) {
        await page.setViewportSize(view.viewport);
        await page.emulateMedia({ colorScheme: view.colorScheme });
        if (i === 0) await harness.signIn(page, at, account);
        else await page.goto(`${base}/dashboard${at === "/" ? "" : at}`);
        yield view;
      }
    },
    async dismissToasts(page) {
      const toasts = page.locator(".toasts .toast");
      // At most five are shown at once; ten tries bound the loop.
      for (let tries = 10; tries > 0 && (await toasts.count()) > 0; tries--) {
        // A toast that went by itself meanwhile is gone all the same.
        await toasts.first().getByRole("button", { name: "Dismiss" }).click({ timeout: 5_000 }).catch(() => undefined);
      }
    },
    async switchChannel(page, label) {
      await page.getByLabel("Channel").selectOption({ label });
      await expect.poll(() => page.getByTestId("nav-channel").textContent()).toContain("Managing streamer");
    },
    async screenshot(page, name) {
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path: file });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.full.png`), fullPage: true });
      return file;
    },
    async lastEatCode(count = 1) {
      const mail = await smtp.waitFor(email, count);
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
      if (!code) throw new Error(`no 6-digit code in the mail: ${mail.text}`);
      return code;
    },
    async close() {
      await browser.close();
      await app.close();
      await smtp.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
