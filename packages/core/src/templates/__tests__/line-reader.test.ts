import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readLines } from "../line-reader.js";

/** The lines and the end `readLines` reports when `chunks` are written one by one. */
async function linesOf(chunks: readonly Buffer[]): Promise<{ lines: string[]; ended: boolean }> {
  const stream = new PassThrough();
  const lines: string[] = [];
  let ended = false;
  const end = new Promise<void>((resolve) =>
    readLines(
      stream,
      (line) => lines.push(line),
      () => {
        ended = true;
        resolve();
      },
    ),
  );
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await end;
  return { lines, ended };
}

describe("readLines", () => {
  it("reports several lines of one chunk, and a line split over several chunks, once each", async () => {
    const { lines, ended } = await linesOf([Buffer.from("b\t1\t[]\ns\t2\t{}\nb\t3"), Buffer.from("\t[1,"), Buffer.from("2]\n")]);
    expect(lines).toEqual(["b\t1\t[]", "s\t2\t{}", "b\t3\t[1,2]"]);
    expect(ended).toBe(true);
  });

  it("decodes a multi-byte character cut between two chunks", async () => {
    const bytes = Buffer.from("héllo 😀 wörld\n", "utf8");
    const cut = bytes.indexOf(Buffer.from("😀", "utf8")) + 2;
    const { lines } = await linesOf([bytes.subarray(0, cut), bytes.subarray(cut)]);
    expect(lines).toEqual(["héllo 😀 wörld"]);
  });

  it("reports empty lines and drops a last line that has no newline", async () => {
    const { lines } = await linesOf([Buffer.from("\n\nx\ntail without newline")]);
    expect(lines).toEqual(["", "", "x"]);
  });
});
