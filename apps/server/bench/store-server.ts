// A server process for store.bench.ts: Ovation on a fresh embedded store holding one quiet user,
// plus, with argument `big`, another user's 30 MB (15 MB of alert log, 15 MB of commands).
// Argument 3, when given, is a PostgreSQL URL to keep the store in. Reports its port, the quiet user's token and the stored size over IPC; on request, the cost of
// one write of the single-file layout of earlier versions (the whole data serialised and written).
import { mkdtempSync, rmSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { buildDefaultAlertSet } from "@ovation/core";
import type { NotifySub } from "@ovation/core";
import { buildApp, loadConfig } from "@ovation/server";
import type { OvationApp } from "@ovation/server";

const BIG_BYTES = 30_000_000;

function seed(app: OvationApp, name: string): { userId: number; token: string } {
  const { repos } = app.ovation;
  const user = repos.users.create({ name });
  const { id: _i, user_id: _u, active: _a, ...set } = buildDefaultAlertSet({ id: 1, user_id: user.id });
  repos.alertSets.create({ user_id: user.id, name: "bench", version: 4, config: set });
  return { userId: user.id, token: repos.tokens.create({ user_id: user.id, name: "bench", scopes: ["alerts:manage"] }).token };
}

async function singleFileWrite(app: OvationApp, dir: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    await writeFile(join(dir, "single-file.json.tmp"), JSON.stringify(app.ovation.repos.store.data));
    await rename(join(dir, "single-file.json.tmp"), join(dir, "single-file.json"));
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[5] ?? NaN;
}

const dir = mkdtempSync(join(tmpdir(), "ovation-store-bench-"));
const config = loadConfig({ OVATION_DATA_DIR: dir, OVATION_DATABASE_URL: process.argv[3], HOST: "127.0.0.1", PORT: "0", OVATION_RATE_LIMIT_PER_MINUTE: "100000000", OVATION_LOG_LEVEL: "silent" });
const app = await buildApp({ config, logger: pino({ level: "silent" }) });
const { repos } = app.ovation;
const quiet = seed(app, "quiet");
if (process.argv[2] === "big") {
  const big = seed(app, "big");
  const chunk = "x".repeat(200_000);
  for (let i = 0; i < BIG_BYTES / 2 / chunk.length; i++) {
    repos.alertLog.append(big.userId, { notification: { id: `big-${i}` }, event: { data: { blob: chunk } } } as unknown as NotifySub, false);
    repos.commands.create(big.userId, { command: `big${i}`, command_aliases: [], response: chunk, command_regex: null, permissions: 0, price: 0, send_as: "bot", enable_when: "always", user_cooldown: 0, global_cooldown: 0, is_visible: true });
  }
  await repos.store.persisted();
}
await app.listen({ port: 0, host: "127.0.0.1" });
const { port } = app.server.address() as AddressInfo;
process.on("message", (m: { type: string }) => {
  if (m.type === "single-file") void singleFileWrite(app, dir).then((ms) => process.send?.({ type: "single-file", ms }));
  if (m.type === "stop") void app.close().then(() => (rmSync(dir, { recursive: true, force: true }), process.exit(0)));
});
process.send?.({ type: "ready", port, token: quiet.token, storedBytes: JSON.stringify(repos.store.data).length, description: repos.store.description });
