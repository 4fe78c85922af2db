/** Delay before retry number `attempt` (0-based): 1 s doubling up to 30 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.min(attempt, 5));
}
