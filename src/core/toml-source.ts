import { parse, TomlError } from "smol-toml";
import type { z } from "zod";
import { InputError } from "./errors.js";

/**
 * TOML files written by people (task.toml, rubric.toml): parse them, and turn validation issues
 * into `file:line: [section] key detail, got value` so the author can jump to the line.
 */

/** Parse TOML; a syntax error becomes an InputError at the reported line. */
export function parseTomlFile(file: string, text: string): Record<string, unknown> {
  // UTF-16 (Windows' "Unicode") read as UTF-8: a NUL beside every ASCII letter, never valid TOML.
  if (text.includes("\0")) {
    throw new InputError(
      file,
      undefined,
      undefined,
      "is not UTF-8 text (it holds NUL bytes: UTF-16?); save it as UTF-8",
    );
  }
  try {
    return parse(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      const first = e.message.split("\n")[0] ?? e.message;
      const detail = first.replace(/^Invalid TOML document:\s*/, "");
      throw new InputError(file, e.line, undefined, `invalid TOML: ${detail}`);
    }
    throw e;
  }
}

/** A table header, `[name]` or `[[name]]`, its name captured. */
const HEADER = /^\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?$/;

/**
 * The 1-based line where a key is set. `path` is a zod issue path such as
 * ["verifier", "timeout_sec"] or ["subtask", 2, "weight"] (the third [[subtask]] table).
 * Falls back to the table header, then to undefined when the key is not written at all.
 */
export function lineOfKey(text: string, path: readonly PropertyKey[]): number | undefined {
  // ["verifier", "env", "FOO"] is also `FOO = …` under a `[verifier.env]` header of its own.
  const [a, b, ...rest] = path;
  if (rest.length > 0 && typeof a === "string" && typeof b === "string") {
    const nested = lineOfKey(text, [`${a}.${b}`, ...rest]);
    if (nested !== undefined) return nested;
  }
  const lines = text.split(/\r?\n/);
  const section = typeof path[0] === "string" && path.length > 1 ? path[0] : null;
  const index = section !== null && typeof path[1] === "number" ? path[1] : null;
  const key = section === null ? path[0] : index === null ? path[1] : path[2];
  let current: string | null = null;
  let arrayCount = -1;
  let headerLine: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = stripComment(lines[i] ?? "").trim();
    const header = HEADER.exec(line);
    if (header) {
      current = header[1] ?? null;
      const isArray = line.startsWith("[[");
      if (isArray && current === section) arrayCount++;
      const matchesSection =
        current === section && (index === null ? !isArray : isArray && arrayCount === index);
      if (matchesSection) headerLine = i + 1;
      else if (headerLine !== undefined) break;
      continue;
    }
    const inSection =
      section === null ? current === null : current === section && (index === null || arrayCount === index);
    if (!inSection || typeof key !== "string") continue;
    const keyMatch = /^["']?([A-Za-z0-9_-]+)["']?\s*=/.exec(line);
    if (keyMatch?.[1] === key) return i + 1;
  }
  if (headerLine !== undefined) return headerLine;
  return section === null ? tableHeaderLine(lines, key) : topLevelLine(lines, section, key);
}

/** The first header of a top-level key written as a table: `[key]`, `[[key]]` or `[key.sub]`. */
function tableHeaderLine(lines: readonly string[], key: PropertyKey | undefined): number | undefined {
  if (typeof key !== "string") return undefined;
  const i = lines.findIndex((raw) => {
    const name = HEADER.exec(stripComment(raw).trim())?.[1];
    return name === key || name?.startsWith(`${key}.`) === true;
  });
  return i < 0 ? undefined : i + 1;
}

/** `section.key = …` or `section = { … }` written before any table header. */
function topLevelLine(
  lines: readonly string[],
  section: string,
  key: PropertyKey | undefined,
): number | undefined {
  let whole: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = stripComment(lines[i] ?? "").trim();
    if (line.startsWith("[")) break;
    const m = /^([A-Za-z0-9_-]+)(?:\.([A-Za-z0-9_-]+))?\s*=/.exec(line);
    if (m?.[1] !== section) continue;
    if (m[2] !== undefined && m[2] === key) return i + 1;
    if (m[2] === undefined) whole ??= i + 1;
  }
  return whole;
}

function stripComment(line: string): string {
  // Good enough for locating keys: a # inside a quoted value only matters after the `=`.
  const hash = line.indexOf("#");
  const eq = line.indexOf("=");
  return hash >= 0 && (eq < 0 || hash < eq) ? line.slice(0, hash) : line;
}

/** Human form of a received value: strings quoted, missing values named. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return value.toString();
  // JSON would print null for these; TOML spells them inf, -inf and nan.
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
  if (value instanceof Date) return value.toISOString();
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = data;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** `[section] key` (or `[[subtask]] #3 weight`, or a bare top-level key) for messages. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  if (path.length <= 1) return String(path[0] ?? "(file)");
  const [section, second, ...rest] = path;
  if (typeof second === "number") {
    const tail = rest.map(String).join(".");
    return `[[${String(section)}]] #${second + 1}${tail ? ` ${tail}` : ""}`;
  }
  return `[${String(section)}] ${[second, ...rest].map(String).join(".")}`;
}

/** One InputError for the first issue; every issue's line and text are kept in the message. */
export function issuesToError(
  file: string,
  text: string,
  data: unknown,
  issues: readonly z.core.$ZodIssue[],
): InputError {
  const rendered = issues.map((issue) => {
    const value = valueAt(data, issue.path);
    const detail = `${fieldLabel(issue.path)} ${issue.message}, got ${describeValue(value)}`;
    return { line: lineOfKey(text, issue.path), detail, path: issue.path };
  });
  const first = rendered[0];
  if (first === undefined) return new InputError(file, undefined, undefined, "invalid");
  const more = rendered
    .slice(1)
    .map((r) => `\n${file}${r.line === undefined ? "" : `:${r.line}`}: ${r.detail}`)
    .join("");
  return new InputError(file, first.line, first.path.map(String).join("."), `${first.detail}${more}`);
}
