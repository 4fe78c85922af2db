import { POINTS_LIMITS } from "./points-record.js";

/**
 * The points' CSV form (RFC 4180: comma-separated, `"` quoting, CRLF or LF): a header line
 * `viewer,name,platform,points`, then one line per wallet. Import checks every line first and
 * changes nothing when one is wrong.
 */

/** The columns of an export, in order; an import needs `viewer` and `points`, `name` and `platform` are optional. */
export const POINTS_CSV_COLUMNS = ["viewer", "name", "platform", "points"] as const;

/** A wallet key: `account:<id>` or `<platform>:<platform user id>`. */
const VIEWER_KEY = /^(?:account:[1-9][0-9]{0,15}|[a-z0-9][a-z0-9_-]{0,31}:[^\s,"]{1,120})$/;
const PLATFORM = /^[a-z0-9][a-z0-9_-]{0,31}$/;
/** Spreadsheets run a cell starting with these as a formula: exports quote them with a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One line of an import, checked. */
export interface PointsCsvRow {
  /** The line number in the file (the header is line 1). */
  line: number;
  viewer: string;
  name: string | null;
  platform: string | null;
  points: number;
}

/** A row to export. */
export interface PointsCsvExportRow {
  viewer: string;
  name: string | null;
  platform: string | null;
  points: number;
}

/** The outcome of parsing an import: every row, or per-line errors (`line 3` -> messages). */
export type PointsCsvParse = { ok: true; rows: PointsCsvRow[] } | { ok: false; errors: Record<string, string[]> };

function cell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The CSV of `rows`, header first, lines ended with CRLF. */
export function formatPointsCsv(rows: readonly PointsCsvExportRow[]): string {
  const lines = [POINTS_CSV_COLUMNS.join(",")];
  for (const row of rows) lines.push([row.viewer, row.name ?? "", row.platform ?? "", String(row.points)].map(cell).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** Splits CSV text into records of fields, each with the line it starts on; an unclosed quote is an error of its line. */
function records(text: string): { records: { line: number; fields: string[] }[]; error: { line: number; message: string } | null } {
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const end = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === "")) out.push({ line: start, fields });
    fields = [];
    field = "";
  };
  for (; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      end();
      line++;
      start = line;
    } else field += c;
  }
  if (quoted) return { records: out, error: { line: start, message: "a quoted field is not closed" } };
  if (field !== "" || fields.length > 0) end();
  return { records: out, error: null };
}

/**
 * Parses and checks an import. `mode: "set"` takes balances (0 to the largest balance); `"add"`
 * takes changes (negative to take). Every wrong line is reported; a viewer twice is an error.
 */
export function parsePointsCsv(text: string, mode: "set" | "add"): PointsCsvParse {
  const errors: Record<string, string[]> = {};
  const fail = (line: number, message: string) => (errors[`line ${line}`] ??= []).push(message);
  if (text.length > POINTS_LIMITS.csvChars) return { ok: false, errors: { csv: [`is longer than ${POINTS_LIMITS.csvChars} characters`] } };
  const parsed = records(text);
  if (parsed.error !== null) fail(parsed.error.line, parsed.error.message);
  const [header, ...lines] = parsed.records;
  if (header === undefined) return { ok: false, errors: { csv: ["is empty: the first line must be the header viewer,name,platform,points"] } };
  const columns = header.fields.map((name) => name.trim().toLowerCase());
  const headerProblems: string[] = [];
  for (const name of columns) if (!(POINTS_CSV_COLUMNS as readonly string[]).includes(name)) headerProblems.push(`unknown column "${name}" (columns: ${POINTS_CSV_COLUMNS.join(", ")})`);
  for (const name of ["viewer", "points"]) if (!columns.includes(name)) headerProblems.push(`the header has no "${name}" column`);
  if (new Set(columns).size !== columns.length) headerProblems.push("a column is named twice");
  if (headerProblems.length > 0) return { ok: false, errors: { [`line ${header.line}`]: headerProblems } };
  if (lines.length > POINTS_LIMITS.csvLines) return { ok: false, errors: { csv: [`has more than ${POINTS_LIMITS.csvLines} lines`] } };
  const at = (fields: string[], name: string) => {
    const index = columns.indexOf(name);
    return index < 0 ? "" : (fields[index] ?? "").trim();
  };
  const rows: PointsCsvRow[] = [];
  const seen = new Map<string, number>();
  const max = POINTS_LIMITS.maxBalance;
  for (const { line, fields } of lines) {
    const problems: string[] = [];
    const problem = (message: string) => problems.push(message);
    if (fields.length !== columns.length) problem(`has ${fields.length} fields; the header has ${columns.length}`);
    const viewer = at(fields, "viewer");
    if (!VIEWER_KEY.test(viewer)) problem(`viewer "${viewer.slice(0, 40)}" is not a wallet (account:<id> or <platform>:<platform user id>)`);
    const first = seen.get(viewer);
    if (first !== undefined) problem(`viewer ${viewer} is on line ${first} already`);
    const text = at(fields, "points");
    const pattern = mode === "add" ? /^[+-]?[0-9]{1,10}$/ : /^[0-9]{1,10}$/;
    const points = Number(text);
    if (!pattern.test(text) || Math.abs(points) > max) {
      problem(mode === "add" ? `points "${text.slice(0, 20)}" must be a whole number from -${max} to ${max}` : `points "${text.slice(0, 20)}" must be a whole number from 0 to ${max}`);
    }
    const rawName = at(fields, "name");
    const name = rawName.startsWith("'") && FORMULA_START.test(rawName.slice(1)) ? rawName.slice(1) : rawName;
    if (name.length > POINTS_LIMITS.nameLength) problem(`name is longer than ${POINTS_LIMITS.nameLength} characters`);
    if (/[\p{Cc}\p{Cf}]/u.test(name)) problem("name holds control or invisible characters");
    const platform = at(fields, "platform");
    if (platform !== "" && !PLATFORM.test(platform)) problem(`platform "${platform.slice(0, 40)}" is not a platform name (lowercase a-z, 0-9, - and _)`);
    if (problems.length > 0) {
      for (const message of problems) fail(line, message);
      continue;
    }
    seen.set(viewer, line);
    rows.push({ line, viewer, name: name === "" ? null : name, platform: platform === "" ? null : platform, points });
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, rows };
}
