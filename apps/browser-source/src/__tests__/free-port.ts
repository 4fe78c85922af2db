import { createServer } from "node:net";

// The same helper as apps/server/src/__tests__/services/free-port.ts, which this package's tsconfig
// cannot import (its rootDir is src/). A port a test names before it starts its server: one the
// kernel hands out to `listen(0)` (its ephemeral range, 32768 on) could be taken by another test
// between a probe's close and the real listen, so ports come from below that range.
const LOW = 20_000;
const HIGH = 32_000;

async function tryListen(port: number): Promise<boolean> {
  const probe = createServer();
  const ok = await new Promise<boolean>((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => resolve(true));
  });
  if (ok) await new Promise<void>((resolve) => probe.close(() => resolve()));
  return ok;
}

/** A loopback port that is free now and that the kernel does not hand out to `listen(0)`. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await tryListen(port)) return port;
  }
  throw new Error(`no free loopback port between ${LOW} and ${HIGH} after 200 tries`);
}
