import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests import workspace packages from source, so a change is tested without a rebuild.
// isolated-vm 5 on Node 20 needs --no-node-snapshot in every process that loads it.
export default defineConfig({
  resolve: {
    alias: {
      "@ovation/core": src("./packages/core/src/index.ts"),
      "@ovation/plugin-twitch": src("./plugins/twitch/src/index.ts"),
      "@ovation/plugin-console": src("./plugins/console/src/index.ts"),
      "@ovation/server": src("./apps/server/src/index.ts"),
    },
  },
  test: {
    include: ["{packages,apps,plugins}/*/src/**/__tests__/**/*.test.ts"],
    pool: "forks",
    execArgv: ["--no-node-snapshot"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
