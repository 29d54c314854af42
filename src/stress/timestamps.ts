import { StressError } from "./types.js";

/**
 * iso: 2026-03-01T14:05:09.123+05:30 · iso-seconds: 2026-03-01T14:05:09+05:30 (Z for UTC)
 * rfc2822: Sun, 01 Mar 2026 14:05:09 +0530 · epoch-s / epoch-ms: integers as text
 * local-minute: 2026/03/01 14:05 and local-seconds: 2026-03-01 14:05:09, both in a zone stated elsewhere.
 */
export type TimestampFormat =
  | "iso"
  | "iso-seconds"
  | "rfc2822"
  | "epoch-s"
  | "epoch-ms"
  | "local-minute"
  | "local-seconds";
export const TIMESTAMP_FORMATS = [
  "iso",
  "iso-seconds",
  "rfc2822",
  "epoch-s",
  "epoch-ms",
  "local-minute",
  "local-seconds",
] as const;

/** Milliseconds a format keeps: parse(format(t)) = t rounded down to a multiple of this. */
export const FORMAT_PRECISION_MS: Record<TimestampFormat, number> = {
  iso: 1,
  "iso-seconds": 1000,
  rfc2822: 1000,
  "epoch-s": 1000,
  "epoch-ms": 1,
  "local-minute": 60_000,
  "local-seconds": 1000,
};

/** Zones are fixed UTC offsets in minutes (−720..+840), named like "+05:30" or "UTC". */
export function zoneName(offsetMinutes: number): string {
  return offsetMinutes === 0 ? "UTC" : offsetText(offsetMinutes, ":");
}

export function parseZone(name: string): number {
  const t = name.trim();
  if (/^(UTC|GMT|Z)$/i.test(t)) return 0;
  const m = /^(?:UTC|GMT)?([+-])(\d{2}):?(\d{2})$/i.exec(t);
  if (m === null) throw new StressError(`unknown zone ${name} (use UTC or ±hh:mm)`);
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const p2 = (n: number): string => String(n).padStart(2, "0");

function offsetText(minutes: number, sep: string): string {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${p2(Math.floor(a / 60))}${sep}${p2(a % 60)}`;
}

/** Format an instant (ms since the epoch, years 1000–9999) in a format and fixed offset. */
export function formatInstant(ms: number, format: TimestampFormat, offsetMinutes = 0): string {
  if (!Number.isSafeInteger(ms)) throw new StressError(`formatInstant: ${ms} is not an integer millisecond`);
  if (format === "epoch-ms") return String(ms);
  if (format === "epoch-s") return String(Math.floor(ms / 1000));
  const d = new Date(ms + offsetMinutes * 60_000);
  const date = [d.getUTCFullYear(), p2(d.getUTCMonth() + 1), p2(d.getUTCDate())];
  const hm = `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}`;
  const hms = `${hm}:${p2(d.getUTCSeconds())}`;
  const zone = offsetMinutes === 0 ? "Z" : offsetText(offsetMinutes, ":");
  switch (format) {
    case "iso":
      return `${date.join("-")}T${hms}.${String(d.getUTCMilliseconds()).padStart(3, "0")}${zone}`;
    case "iso-seconds":
      return `${date.join("-")}T${hms}${zone}`;
    case "rfc2822":
      return `${DAYS[d.getUTCDay()]}, ${date[2]} ${MONTHS[d.getUTCMonth()]} ${date[0]} ${hms} ${offsetText(offsetMinutes, "")}`;
    case "local-minute":
      return `${date.join("/")} ${hm}`;
    case "local-seconds":
      return `${date.join("-")} ${hms}`;
  }
}

function fromParts(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
  offset: number,
): number {
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const check = new Date(t);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
    throw new StressError(`invalid date/time ${y}-${mo}-${d} ${h}:${mi}:${s}`);
  }
  return t - offset * 60_000;
}

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const RFC_RE =
  /^(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s+([+-]\d{4}|UT|UTC|GMT|Z)$/;
const SLASH_RE = /^(\d{4})\/(\d{2})\/(\d{2})\s+(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * Parse any of the formats above back to ms since the epoch. Text without an offset is read in
 * `zoneOffsetMinutes`. Bare integers are epoch seconds unless format says "epoch-ms" or |n| ≥ 1e11
 * (which as seconds would be past year 5000).
 */
export function parseInstant(
  text: string,
  options: { format?: TimestampFormat; zoneOffsetMinutes?: number } = {},
): number {
  const t = text.trim();
  const zone = options.zoneOffsetMinutes ?? 0;
  if (/^-?\d+$/.test(t)) {
    const n = Number(t);
    const ms = options.format === "epoch-ms" || (options.format !== "epoch-s" && Math.abs(n) >= 1e11);
    return ms ? n : n * 1000;
  }
  let m = ISO_RE.exec(t);
  if (m !== null) {
    const frac = (m[7] ?? "").padEnd(3, "0").slice(0, 3);
    const off = m[8] === undefined ? zone : /^z$/i.test(m[8]) ? 0 : parseZone(m[8]);
    return fromParts(
      Number(m[1]),
      Number(m[2]),
      Number(m[3]),
      Number(m[4]),
      Number(m[5]),
      Number(m[6] ?? 0),
      Number(frac),
      off,
    );
  }
  m = RFC_RE.exec(t);
  if (m !== null) {
    const month = MONTHS.findIndex((x) => x.toLowerCase() === (m?.[2] ?? "").toLowerCase());
    if (month < 0) throw new StressError(`unknown month in ${text}`);
    const z = m[7] as string;
    const off = /^[+-]/.test(z) ? parseZone(z) : 0;
    return fromParts(
      Number(m[3]),
      month + 1,
      Number(m[1]),
      Number(m[4]),
      Number(m[5]),
      Number(m[6] ?? 0),
      0,
      off,
    );
  }
  m = SLASH_RE.exec(t);
  if (m !== null) {
    return fromParts(
      Number(m[1]),
      Number(m[2]),
      Number(m[3]),
      Number(m[4]),
      Number(m[5]),
      Number(m[6] ?? 0),
      0,
      zone,
    );
  }
  throw new StressError(`unrecognised timestamp ${JSON.stringify(text)}`);
}

/** The instant rounded down to what a format keeps. */
export function truncateToFormat(ms: number, format: TimestampFormat): number {
  const p = FORMAT_PRECISION_MS[format];
  return Math.floor(ms / p) * p;
}
