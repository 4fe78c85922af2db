import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests import workspace packages from source, so a change is tested without a rebuild.
// isolated-vm 5 on Node 20 needs --no-node-snapshot in every process that loads it.
export default defineConfig({
  resolve: {
    alias: [
      // Entry points of @ovation/core (package.json "exports"), each to its barrel.
      { find: /^@ovation\/core$/, replacement: src("./packages/core/src/index.ts") },
      { find: /^@ovation\/core\/contracts$/, replacement: src("./packages/core/src/contracts.ts") },
      { find: /^@ovation\/core\/(alerts|api|templates|commands|net|plugins|overlays)$/, replacement: `${src("./packages/core/src/")}$1/index.ts` },
      { find: /^@ovation\/core\/plugin-kit$/, replacement: src("./packages/core/src/plugin-kit/index.ts") },
      { find: /^@ovation\/core\/plugin-kit\/testing$/, replacement: src("./packages/core/src/plugin-kit/testing/index.ts") },
      { find: /^@ovation\/client$/, replacement: src("./packages/client/src/index.ts") },
      { find: /^@ovation\/client\/(http|socket)$/, replacement: `${src("./packages/client/src/")}$1/index.ts` },
      { find: /^@ovation\/client\/errors$/, replacement: src("./packages/client/src/errors.ts") },
      { find: /^@ovation\/plugin-twitch$/, replacement: src("./plugins/twitch/src/index.ts") },
      { find: /^@ovation\/plugin-twitch\/testing$/, replacement: src("./plugins/twitch/src/testing/index.ts") },
      { find: /^@ovation\/plugin-console$/, replacement: src("./plugins/console/src/index.ts") },
      { find: /^@ovation\/plugin-youtube$/, replacement: src("./plugins/youtube/src/index.ts") },
      { find: /^@ovation\/plugin-youtube\/testing$/, replacement: src("./plugins/youtube/src/testing/index.ts") },
      { find: /^@ovation\/plugin-kick$/, replacement: src("./plugins/kick/src/index.ts") },
      { find: /^@ovation\/plugin-kick\/testing$/, replacement: src("./plugins/kick/src/testing/index.ts") },
      { find: /^@ovation\/plugin-tiktok$/, replacement: src("./plugins/tiktok/src/index.ts") },
      { find: /^@ovation\/plugin-tiktok\/testing$/, replacement: src("./plugins/tiktok/src/testing/index.ts") },
      { find: /^@ovation\/server$/, replacement: src("./apps/server/src/index.ts") },
    ],
  },
  test: {
    include: ["{packages,apps,plugins}/*/src/**/__tests__/**/*.test.ts", "scripts/__tests__/*.test.ts"],
    // Shared PostgreSQL/Redis servers: started by the first test that needs one, stopped at the end.
    globalSetup: ["apps/server/src/__tests__/services/global-setup.ts"],
    pool: "forks",
    // Test files share their worker process and its loaded modules: importing the server from
    // source took most of a file's time when every file had a fresh process (a batch of 9 server
    // files: 116 s of 167 s was import). Files keep apart through their own servers, data
    // directories and databases; none mocks a module or relies on a fresh module state.
    isolate: false,
    // Two workers on a 2-core machine (vitest's default would be one: cores - 1). Much of a test
    // file's time is spent waiting on what it started (Chromium, `ovation start`, sandbox and CLI
    // processes, PostgreSQL, Redis), and a second worker fills that time: 1.3x to 1.76x on mixed
    // batches on the loaded machine, where three workers gained nothing over two and put more
    // timing-bound tests past their limits (README, "Tests and CI"). `--maxWorkers=1` runs one.
    maxWorkers: 2,
    // The default report, then the 20 slowest test files (scripts/vitest-slowest-files.ts).
    reporters: ["default", "./scripts/vitest-slowest-files.ts"],
    execArgv: ["--no-node-snapshot"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
