import { rt } from "./runtime.js";
import { str } from "./values.js";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function pad(n: number, w: number): string {
  let s = String(n);
  while (s.length < w) s = "0" + s;
  return s;
}

/** A date value (timestamp in seconds or ms, date string, "now") as epoch milliseconds. */
function toMillis(v: unknown): number {
  if (v === undefined || v === null || v === "now" || v === "") return rt.state ? rt.state.now : 0;
  if (typeof v === "number") return Math.abs(v) < 1e11 ? v * 1000 : v;
  const s = str(v);
  if (/^-?\d+(\.\d+)?$/.test(s)) return toMillis(Number(s));
  const ms = Date.parse(s);
  if (ms !== ms) throw new TypeError('date: cannot read "' + s.slice(0, 40) + '" as a date');
  return ms;
}

function ordinal(j: number): string {
  if (j % 10 === 1 && j !== 11) return "st";
  if (j % 10 === 2 && j !== 12) return "nd";
  if (j % 10 === 3 && j !== 13) return "rd";
  return "th";
}

/** True for the names of UTC this engine accepts as the `date` filter's time zone. */
export function isUtc(timezone: unknown): boolean {
  // No str(): the host calls this too, where there is no SafeString class.
  return /^(UTC|Etc\/UTC|GMT|Z|\+00:00)$/i.test(String(timezone));
}

/** Twig's `date` filter: PHP `date()` format characters, in UTC. */
export function formatDate(v: unknown, format?: unknown, timezone?: unknown): string {
  if (timezone !== undefined && timezone !== null && timezone !== false && !isUtc(timezone)) {
    throw new RangeError('date: only the UTC time zone is available, not "' + str(timezone).slice(0, 40) + '"');
  }
  const ms = toMillis(v);
  const d = new Date(ms);
  if (isNaN(d.getTime())) throw new RangeError("date: out of range");
  const f = format === undefined || format === null ? "F j, Y H:i" : str(format);
  const Y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const j = d.getUTCDate();
  const w = d.getUTCDay();
  const H = d.getUTCHours();
  const i = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  const month = MONTHS[m] as string;
  const day = DAYS[w] as string;
  let out = "";
  for (let k = 0; k < f.length; k++) {
    const c = f[k];
    switch (c) {
      case "d": out += pad(j, 2); break;
      case "j": out += j; break;
      case "D": out += day.slice(0, 3); break;
      case "l": out += day; break;
      case "N": out += w === 0 ? 7 : w; break;
      case "w": out += w; break;
      case "S": out += ordinal(j); break;
      case "z": out += Math.floor((Date.UTC(Y, m, j) - Date.UTC(Y, 0, 1)) / 86400000); break;
      case "F": out += month; break;
      case "M": out += month.slice(0, 3); break;
      case "m": out += pad(m + 1, 2); break;
      case "n": out += m + 1; break;
      case "t": out += new Date(Date.UTC(Y, m + 1, 0)).getUTCDate(); break;
      case "Y": out += Y; break;
      case "y": out += pad(Y % 100, 2); break;
      case "a": out += H < 12 ? "am" : "pm"; break;
      case "A": out += H < 12 ? "AM" : "PM"; break;
      case "g": out += H % 12 || 12; break;
      case "G": out += H; break;
      case "h": out += pad(H % 12 || 12, 2); break;
      case "H": out += pad(H, 2); break;
      case "i": out += pad(i, 2); break;
      case "s": out += pad(s, 2); break;
      case "e": case "T": out += "UTC"; break;
      case "P": out += "+00:00"; break;
      case "O": out += "+0000"; break;
      case "U": out += Math.floor(ms / 1000); break;
      case "c": out += d.toISOString().slice(0, 19) + "+00:00"; break;
      case "\\": k++; if (k < f.length) out += f[k]; break;
      default: out += c;
    }
  }
  return out;
}
