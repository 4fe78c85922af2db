/**
 * Entry point of the template sandbox process (started by `TemplateSandbox` with
 * `--no-node-snapshot`). It owns the isolates, so a template that takes V8 down with it takes down
 * only this process; the host fails the renders in flight and starts a new one.
 *
 * Protocol, one line per message:
 * - host -> sandbox `d\t<templateId>\t<code as JSON string>`: remember compiled code;
 * - host -> sandbox `r\t<batchId>\t<templateId,...>\t<items JSON>`: render a batch;
 * - host -> sandbox `s\t<requestId>`: report the isolate pool's counters;
 * - sandbox -> host `b\t<batchId>\t<results JSON>`: the results of a batch;
 * - sandbox -> host `s\t<requestId>\t<IsolatePoolStats JSON>`: the pool's counters;
 * - sandbox -> host `l\t<message>`: something the host should log.
 */
import { InsertionCache } from "./insertion-cache.js";
import { IsolatePool } from "./isolate-pool.js";
import { readLines } from "./line-reader.js";
import { RENDER_STATUS } from "./render-status.js";
import { PROCESS_TEMPLATE_CACHE } from "./sandbox-limits.js";
import type { TemplateSandboxLimits } from "./sandbox-limits.js";

function send(line: string): void {
  process.stdout.write(`${line}\n`);
}

function log(message: string): void {
  send(`l\t${message.replace(/[\t\n]/g, " ")}`);
}

async function main(): Promise<void> {
  const limits = JSON.parse(process.env["OVATION_TEMPLATE_SANDBOX_LIMITS"] ?? "null") as TemplateSandboxLimits;
  const pool = new IsolatePool(limits, (message) => {
    log(`catastrophic isolate error, exiting: ${message}`);
    process.exit(70);
  });
  const codes = new InsertionCache<string>(PROCESS_TEMPLATE_CACHE);
  const started = pool.start();

  const handleBatch = async (batchId: string, tids: string[], itemsJson: string): Promise<void> => {
    const batchCodes = new Map<string, string>();
    for (const tid of tids) {
      const code = codes.get(tid);
      if (code !== undefined) batchCodes.set(tid, code);
    }
    await started;
    let results: string;
    if (batchCodes.size === tids.length) {
      results = await pool.run(tids, batchCodes, itemsJson);
    } else {
      const items = JSON.parse(itemsJson) as Array<[number, string]>;
      const known = items.filter((item) => batchCodes.has(item[1]));
      const missing = items.filter((item) => !batchCodes.has(item[1])).map((item) => [item[0], RENDER_STATUS.missing]);
      const rendered = known.length
        ? (JSON.parse(await pool.run([...batchCodes.keys()], batchCodes, JSON.stringify(known))) as unknown[])
        : [];
      results = JSON.stringify([...rendered, ...missing]);
    }
    send(`b\t${batchId}\t${results}`);
  };

  const onLine = (line: string): void => {
    const kind = line.charCodeAt(0);
    if (kind === 100 /* d */) {
      const tab = line.indexOf("\t", 2);
      codes.set(line.slice(2, tab), JSON.parse(line.slice(tab + 1)) as string);
    } else if (kind === 115 /* s */) {
      const requestId = line.slice(2);
      pool.stats().then(
        (stats) => send(`s\t${requestId}\t${JSON.stringify(stats)}`),
        (error: unknown) => log(`stats ${requestId} failed: ${String(error)}`),
      );
    } else if (kind === 114 /* r */) {
      const a = line.indexOf("\t", 2);
      const b = line.indexOf("\t", a + 1);
      const batchId = line.slice(2, a);
      handleBatch(batchId, line.slice(a + 1, b).split(","), line.slice(b + 1)).catch((error: unknown) => {
        log(`batch ${batchId} failed: ${String(error)}`);
        process.exit(71);
      });
    }
  };
  readLines(process.stdin, onLine, () => {
    pool.close();
    process.exit(0);
  });
}

main().catch((error: unknown) => {
  log(`sandbox process failed to start: ${String(error)}`);
  process.exit(72);
});
