/**
 * Trims `text` and keeps at most `limit` UTF-16 code units of it (never splitting a surrogate
 * pair), trimming again after the cut. The sandbox applies the same rule inside the isolate.
 */
export function capOutput(text: string, limit: number): string {
  let out = text.trim();
  if (out.length > limit) {
    let end = limit;
    const code = out.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    out = out.slice(0, end).trim();
  }
  return out;
}
