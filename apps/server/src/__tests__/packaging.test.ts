import { execFileSync, spawn } from "node:child_process";
import type { ChildProcessByStdio } from "node:child_process";
import { existsSync, lstatSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./helpers.js";
import { REPO, packAndInstall } from "./packaging-harness.js";
import type { PackedInstall } from "./packaging-harness.js";
import { launchChromium } from "./services/chromium.js";

/** What the sample plugin's fake server offers (imported from the installed tarball, not the source). */
interface FakeChat {
  url: string;
  joined(channel: string): Promise<void>;
  message(channel: string, user: { id: string; name: string }, text: string): string;
  follow(channel: string, user: { id: string; name: string }): string;
  nextSay(timeoutMs?: number): Promise<{ channel: string; text: string; reply_to: string | null }>;
  close(): Promise<void>;
}

const TYPE_CHECK = `
import { PLUGIN_API_VERSION, chatEventSchema, definePlugin } from "@ovation/core/contracts";
import type { ChatEvent, PlatformPlugin, PluginFactory } from "@ovation/core/contracts";
import { buildDefaultAlertSet, builtInPlatforms, catalogWithPlatforms, resolveAlert } from "@ovation/core/alerts";
import type { AlertResolution } from "@ovation/core/alerts";
import { TemplateSandbox } from "@ovation/core/templates";
import { CommandRuntime } from "@ovation/core/commands";
import { GuardedHttpClient } from "@ovation/core/net";
import { PluginHost } from "@ovation/core/plugins";
import { SendQueue, platformNotification } from "@ovation/core/plugin-kit";
import { until } from "@ovation/core/plugin-kit/testing";
import { resolveAlert as fromRoot } from "@ovation/core";
import { startServer } from "@ovation/server";
import type { RunningServer, StartServerOptions } from "@ovation/server";
import fakechat from "ovation-plugin-fakechat";
import { FakeChatServer } from "ovation-plugin-fakechat/server";

const factory: PluginFactory = fakechat;
const api: string = PLUGIN_API_VERSION;
const set = buildDefaultAlertSet({ id: 1, user_id: 1 }, { catalog: catalogWithPlatforms(builtInPlatforms()) });
const resolved: AlertResolution = resolveAlert(set, { type: "follow", platform: "twitch", data: {}, random: 1 });
const same: typeof resolveAlert = fromRoot;
const options: StartServerOptions = { plugins: [fakechat], signals: false };
const start: (o: StartServerOptions) => Promise<RunningServer> = startServer;
const event: ChatEvent | undefined = chatEventSchema.safeParse({}).data;
const made: typeof definePlugin = definePlugin;
const classes = [TemplateSandbox, CommandRuntime, GuardedHttpClient, PluginHost, FakeChatServer, SendQueue];
const kit: [typeof platformNotification, typeof until] = [platformNotification, until];
// @ts-expect-error a factory's settings are typed by its zod schema
fakechat({ url: 1 }, null);
// @ts-expect-error PlatformPlugin requires its methods
const broken: PlatformPlugin = { metadata: factory.id };
export { api, resolved, same, options, start, event, made, classes, kit, broken };
`;

const ENTRY_POINTS = [
  "@ovation/core",
  "@ovation/core/contracts",
  "@ovation/core/alerts",
  "@ovation/core/templates",
  "@ovation/core/commands",
  "@ovation/core/net",
  "@ovation/core/plugins",
  "@ovation/core/plugin-kit",
  "@ovation/core/plugin-kit/testing",
  "@ovation/server",
  "ovation-plugin-fakechat",
  "ovation-plugin-fakechat/server",
];

describe("packaged: npm pack of core, server and a sample plugin, installed outside the workspace", { timeout: 90_000 }, () => {
  let install: PackedInstall;
  let fake: FakeChat;
  let server: ChildProcessByStdio<null, Readable, Readable> | null = null;
  let output = "";

  beforeAll(() => {
    install = packAndInstall();
  }, 90_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const running = server;
      const exited = new Promise<boolean>((resolve) => running.once("exit", () => resolve(true)));
      running.kill("SIGTERM");
      // Bounded: a server that has not stopped 40 s after SIGTERM is killed, and its last output is
      // kept in the test log (two CI runs saw the old unbounded wait pass the 30 s hook limit).
      const stopped = await Promise.race([exited, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 40_000))]);
      if (!stopped) {
        console.error(`ovation start did not exit 40 s after SIGTERM; killing it. Its last output:\n${output.slice(-4000)}`);
        running.kill("SIGKILL");
        await exited;
      }
    }
    await fake?.close();
    install?.remove();
  }, 60_000);

  it("installs from the tarballs outside the workspace", () => {
    expect(install.dir.startsWith(REPO)).toBe(false);
    expect(install.tarballs.map((t) => t.split("/").pop()).sort()).toEqual([
      "ovation-browser-source-0.1.0.tgz",
      "ovation-client-0.1.0.tgz",
      "ovation-core-0.1.0.tgz",
      "ovation-dashboard-0.1.0.tgz",
      "ovation-plugin-console-0.1.0.tgz",
      "ovation-plugin-fakechat-1.0.0.tgz",
      "ovation-plugin-kick-0.1.0.tgz",
      "ovation-plugin-tiktok-0.1.0.tgz",
      "ovation-plugin-twitch-0.1.0.tgz",
      "ovation-plugin-youtube-0.1.0.tgz",
      "ovation-server-0.1.0.tgz",
    ]);
    // Only published files: no sources, no tests; every @ovation package comes from its tarball, not a link.
    expect(existsSync(join(install.dir, "node_modules", "@ovation", "core", "src"))).toBe(false);
    for (const name of ["core", "client", "server", "browser-source", "dashboard", "plugin-console", "plugin-twitch", "plugin-youtube", "plugin-tiktok"]) {
      expect(lstatSync(join(install.dir, "node_modules", "@ovation", name)).isSymbolicLink(), name).toBe(false);
    }
  });

  it("type-checks a program importing every entry point, and imports each at run time", () => {
    writeFileSync(join(install.dir, "check.ts"), TYPE_CHECK);
    writeFileSync(
      join(install.dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ["check.ts"] }),
    );
    writeFileSync(join(install.dir, "package.json"), JSON.stringify({ name: "packaged-check", private: true, type: "module" }));
    const tsc = join(REPO, "node_modules", "typescript", "bin", "tsc");
    try {
      execFileSync(process.execPath, [tsc, "-p", install.dir], { cwd: install.dir, stdio: "pipe", timeout: 60_000 });
    } catch (error) {
      throw new Error(`type check failed:\n${String((error as { stdout?: Buffer }).stdout ?? error)}`);
    }
    const probe = `for (const s of ${JSON.stringify(ENTRY_POINTS)}) { const m = await import(s); if (Object.keys(m).length === 0) throw new Error(s + " exports nothing"); }`;
    execFileSync(process.execPath, ["--no-node-snapshot", "--input-type=module", "-e", probe], { cwd: install.dir, stdio: "pipe", timeout: 30_000 });
  });

  it("ovation start loads the plugin by package name; chat through the fake server is answered and its follow shows in Chromium", async () => {
    const fakeModule = (await import(pathToFileURL(join(install.dir, "node_modules", "ovation-plugin-fakechat", "dist", "fake-server.js")).href)) as {
      FakeChatServer: { start(): Promise<FakeChat> };
    };
    fake = await fakeModule.FakeChatServer.start();
    const port = await freePort();
    server = spawn(join(install.dir, "node_modules", ".bin", "ovation"), ["start"], {
      cwd: install.dir,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: install.dir,
        PORT: String(port),
        HOST: "127.0.0.1",
        OVATION_DATA_DIR: join(install.dir, "data"),
        OVATION_LOG_LEVEL: "warn",
        OVATION_PLUGINS: "ovation-plugin-fakechat",
        OVATION_PLUGIN_FAKECHAT_URL: fake.url,
        OVATION_PLUGIN_FAKECHAT_CHANNEL: "fakeroom",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const started = Date.now();
    while (!/Browser source[^\n]*\n\s+(\S+)/.test(output)) {
      if (server.exitCode !== null || Date.now() - started > 30_000) throw new Error(`ovation start did not come up:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const sourceUrl = /Browser source[^\n]*\n\s+(\S+)/.exec(output)?.[1] ?? "";
    await fake.joined("fakeroom");

    // The dashboard's page and its built bundle come from the installed @ovation/dashboard tarball.
    const dashboardUrl = (/Dashboard: (\S+)/.exec(output)?.[1] ?? "missing").replace("//localhost:", "//127.0.0.1:");
    expect((await fetch(dashboardUrl)).status).toBe(200);
    expect((await fetch(`${dashboardUrl}/assets/app.js`)).status).toBe(200);

    // `ovation plugins` asks the running server.
    const listing = JSON.parse(
      execFileSync(join(install.dir, "node_modules", ".bin", "ovation"), ["plugins", "--json"], {
        cwd: install.dir,
        env: { PATH: process.env.PATH ?? "", HOME: install.dir, OVATION_DATA_DIR: join(install.dir, "data"), OVATION_PLUGINS: "ovation-plugin-fakechat" },
        encoding: "utf8",
        timeout: 20_000,
      }),
    ) as { running: boolean; plugins: { id: string; origin: string; platform: string; status: string }[] };
    expect(listing.running).toBe(true);
    expect(listing.plugins).toEqual([expect.objectContaining({ id: "fakechat", origin: "package", platform: "fakechat", status: "connected" })]);

    // A command: the first run's demo !hug, rendered in the sandbox and sent back through FakeChat.
    fake.message("fakeroom", { id: "u-7", name: "viewer" }, "!hug Alice");
    expect((await fake.nextSay(20_000)).text).toBe("viewer sends a hug to Alice <3");

    // The platform's follow, shown by a real browser source.
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(sourceUrl);
      await page.waitForSelector(`[data-state="connected"]`, { timeout: 15_000 });
      const id = fake.follow("fakeroom", { id: "u-8", name: "Fan" });
      const shown = page.locator(`.ovation-alert[data-notification-id="${id}"]`);
      await shown.waitFor({ state: "visible", timeout: 15_000 });
      expect(await shown.locator(".ovation-title").textContent()).toBe("Fan followed on FakeChat");
    } finally {
      await browser.close();
    }
  });
});
