// What the server benches share for diagnosis (not part of a figure): V8/Node flags for their
// server children only, from BENCH_SERVER_NODE_FLAGS (space-separated; `--trace-gc`,
// `--trace-gc-nvp`, `--heapsnapshot-signal=SIGUSR2`...).

/** The flags of BENCH_SERVER_NODE_FLAGS, none when it is unset. */
export function diagnosisNodeFlags(): string[] {
  return (process.env["BENCH_SERVER_NODE_FLAGS"] ?? "").split(/\s+/).filter(Boolean);
}
