/**
 * Rewrites a platform timestamp as the NotifySub `created_at` form: RFC 3339 UTC with exactly six
 * fractional digits and `Z`. An RFC 3339 UTC time keeps its own digits (Twitch sends nanoseconds,
 * cut to six; fewer are padded); any other time `Date` can read goes through `Date` (millisecond
 * precision, padded to six); an unreadable one becomes now, so a notification always has a time.
 */
export function toMicrosecondIso(timestamp: string): string {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(timestamp);
  if (match) return `${match[1]}.${(match[2] ?? "").padEnd(6, "0").slice(0, 6)}Z`;
  const parsed = Date.parse(timestamp);
  const date = Number.isNaN(parsed) ? new Date() : new Date(parsed);
  return date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}
