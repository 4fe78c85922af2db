// The Node flags an Ovation server process runs with: bin/ovation.mjs re-executes node with them,
// and the server benches start their servers with the same ones (so they measure what `ovation
// start` runs).
//
// - `--no-node-snapshot`: isolated-vm 5 on Node 20 needs it in every process that loads it.
// - A young generation of 64 MB per semi-space (V8 starts at 1 MB and grows it to 16 MB at most).
//   Every alert stays in its user's alert log for the 500 newest, about 2.5 s at 200 alerts a second:
//   with a small young generation each scavenge finds all the alerts since the last one still alive
//   and copies them, twice before they are promoted, and its pause (7 to 28 ms measured, against 2
//   to 5 ms for a bare socket.io server) lands on the alerts in flight. With 64 MB the scavenges are
//   rare and the two-node alert latency's p99 at one client halved (docs/deployment.md, "The nodes'
//   young-generation GCs"). The memory is taken only as it is used.
//
// An operator's own semi-space size (on the command line or in NODE_OPTIONS) wins.

/** MB per semi-space of the young generation of a server process. */
export const YOUNG_GENERATION_MB = 64;

/**
 * The flags to start a server process with. `given`: the flags the process was started with
 * (command line and NODE_OPTIONS); a semi-space size among them is kept instead of ours.
 */
export function serverNodeFlags(given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)]) {
  const flags = ["--no-node-snapshot"];
  if (!given.some((flag) => /^--(min|max)[-_]semi[-_]space[-_]size\b/.test(flag))) {
    flags.push(`--min-semi-space-size=${YOUNG_GENERATION_MB}`, `--max-semi-space-size=${YOUNG_GENERATION_MB}`);
  }
  return flags;
}
