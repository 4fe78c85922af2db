import { createServer } from "node:net";

// A port a test names before it starts its server (an identity URL, a PORT variable). Asking the
// kernel for port 0 and closing the probe raced: that port comes from the ephemeral range, which
// the kernel hands out again at once to any other test's `listen(0)` or outbound connection
// (CI saw EADDRINUSE). Ports below the ephemeral range (Linux: 32768 on) are never handed out by
// the kernel, so only another test's freePort could take one, and it probes at random too.
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
