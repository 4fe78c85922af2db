/** A source of the current time in epoch milliseconds; tests pass a fake one. */
export type Clock = () => number;

/** The real clock. */
export const systemClock: Clock = () => Date.now();
