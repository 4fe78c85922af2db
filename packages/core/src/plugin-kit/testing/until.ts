/**
 * Polls `read` every 20 ms until it returns something other than `undefined`, `null` or `false`,
 * and resolves with that; rejects with `timed out waiting for <what>` after `timeoutMs`. For
 * tests that drive a plugin against a fake platform and wait for an effect.
 */
export async function until<T>(read: () => T | undefined | null | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = read();
    if (value !== undefined && value !== null && value !== false) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}
