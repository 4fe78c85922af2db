#!/usr/bin/env node
// `npm test` drives Debian's Chromium (/usr/bin/chromium) through Playwright for the page and the
// identity tests. Playwright's own browser download cannot work offline, so on a machine without
// Chromium this installs Debian's package when it can (root with apt-get), and otherwise stops
// with a message that says what to install.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";
if (existsSync(CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
if (!isRoot || !hasApt) {
  console.error(
    `${CHROMIUM} is missing and cannot be installed from here (needs root and apt-get).\n` +
      "Install Debian's chromium package (sudo apt-get install chromium), then run npm test again.",
  );
  process.exit(1);
}

console.log(`${CHROMIUM} is missing: installing Debian's chromium package for the browser tests...`);
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
for (const args of [["update", "-qq"], ["install", "-y", "-qq", "chromium"]]) {
  const run = spawnSync("apt-get", args, { stdio: "inherit", env });
  if (run.status !== 0) {
    console.error(`apt-get ${args.join(" ")} failed (exit ${run.status}); install chromium by hand and run npm test again.`);
    process.exit(1);
  }
}
