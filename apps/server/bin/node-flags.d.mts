/** MB per semi-space of the young generation of a server process. */
export declare const YOUNG_GENERATION_MB: number;
/**
 * The flags to start a server process with. `given`: the flags the process was started with
 * (command line and NODE_OPTIONS); a semi-space size among them is kept instead of ours.
 */
export declare function serverNodeFlags(given?: readonly string[]): string[];
