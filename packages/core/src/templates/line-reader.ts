import type { Readable } from "node:stream";

const NEWLINE = 10;

/**
 * Calls `onLine` with each line `stream` delivers (UTF-8, `\n`-terminated, without the `\n`), and
 * `onEnd` when the stream ends. The sandbox protocol's lines run to kilobytes (a batch of renders);
 * this finds each newline with one byte search over the chunk and decodes each line once, where
 * `node:readline` decodes every chunk and then scans the text again with a regular expression.
 * Splitting bytes at `\n` is safe in UTF-8: the byte never occurs inside a multi-byte character.
 * A last line without its `\n` is dropped (every protocol line ends with one).
 */
export function readLines(stream: Readable, onLine: (line: string) => void, onEnd?: () => void): void {
  let pending: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => {
    let start = 0;
    let end = chunk.indexOf(NEWLINE);
    while (end !== -1) {
      let line: string;
      if (pending.length === 0) {
        line = chunk.toString("utf8", start, end);
      } else {
        pending.push(chunk.subarray(start, end));
        line = Buffer.concat(pending).toString("utf8");
        pending = [];
      }
      onLine(line);
      start = end + 1;
      end = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  if (onEnd !== undefined) stream.once("end", onEnd);
}
