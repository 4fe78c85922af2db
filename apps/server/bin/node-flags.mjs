// The Node flags an Ovation server process runs with: bin/ovation.mjs re-executes node with them,
// and the server benches start their servers with the same ones (so they measure what `ovation
// start` runs).
//
// - `--no-node-snapshot`: isolated-vm 5 on Node 20 needs it in every process that loads it.
//
// The young generation keeps V8's default size (semi-spaces from 1 MB up to 16 MB). A fixed 64 MB
// was shipped for a while to make scavenges rare; alternating runs on a quiet machine then showed
// it did not lower the two-node alert latency and made a quiet user's alert POST beside a
// 100,000-entry giveaway on PostgreSQL slower at p99 (docs/deployment.md, "Node flags of a server
// process"). An operator who wants another size sets `--max-semi-space-size` in NODE_OPTIONS, or
// `--min-semi-space-size` and `--max-semi-space-size` on the node command line that runs
// bin/ovation.mjs (passed on to the server process as given).

/** The flags to start a server process with (beside the operator's own, which are passed on as they are). */
export function serverNodeFlags() {
  return ["--no-node-snapshot"];
}
