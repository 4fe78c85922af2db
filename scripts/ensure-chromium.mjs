#!/usr/bin/env node
// `npm test` drives Debian's Chromium through Playwright for the page and the identity tests: its
// headless shell (/usr/bin/chromium-headless-shell, package chromium-headless-shell) when installed,
// which renders the same pages with less work, else the full browser (/usr/bin/chromium).
// Playwright's own browser download cannot work offline, so on a machine without them this installs
// Debian's packages when it can (root with apt-get), and otherwise stops with a message that says
// what to install (or, when only the headless shell is missing, says the tests use the full browser).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";
const SHELL = "/usr/bin/chromium-headless-shell";
const missing = [
  [CHROMIUM, "chromium"],
  [SHELL, "chromium-headless-shell"],
].filter(([path]) => !existsSync(path)).map(([, name]) => name);
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
if (!isRoot || !hasApt) {
  if (existsSync(CHROMIUM)) {
    console.warn(`${SHELL} is missing (needs root and apt-get to install): the browser tests use the full ${CHROMIUM}, which is slower (sudo apt-get install chromium-headless-shell).`);
    process.exit(0);
  }
  console.error(
    `${CHROMIUM} is missing and cannot be installed from here (needs root and apt-get).\n` +
      "Install Debian's chromium packages (sudo apt-get install chromium chromium-headless-shell), then run npm test again.",
  );
  process.exit(1);
}

console.log(`installing Debian's ${missing.join(" and ")} for the browser tests...`);
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
for (const args of [["update", "-qq"], ["install", "-y", "-qq", ...missing]]) {
  const run = spawnSync("apt-get", args, { stdio: "inherit", env });
  if (run.status !== 0) {
    console.error(`apt-get ${args.join(" ")} failed (exit ${run.status}); install ${missing.join(" ")} by hand and run npm test again.`);
    process.exit(1);
  }
}
