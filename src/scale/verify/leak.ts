import { factForm, parseDelimited } from "../facts.js";
import type { GroundFact } from "../types.js";
import { type CheckResult, checkResult, type Diagnostic, diag } from "./diagnostics.js";

/** Shorter literals are too common to mean anything ("EUR", "1.0", "yes"). */
const MIN_TEXT = 4;
const MIN_DIGITS = 3;
const MIN_LINE = 12;

/**
 * The literal values a protected file holds, as the agent would have to find them: JSON leaves,
 * table cells (not the header), JSONL leaves, and whole lines of other text files.
 */
export function protectedLiterals(path: string, bytes: Uint8Array): string[] {
  if (bytes.includes(0)) return [];
  const text = new TextDecoder().decode(bytes);
  const out: string[] = [];
  const leaves = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(leaves);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(leaves);
    else if (typeof v === "string" || typeof v === "number") out.push(String(v));
  };
  try {
    const form = factForm(path);
    if (form === "json") leaves(JSON.parse(text));
    else if (form === "rows" && path.toLowerCase().endsWith(".jsonl")) {
      for (const line of text.split("\n")) if (line.trim() !== "") leaves(JSON.parse(line));
    } else if (form === "rows") {
      const rows = parseDelimited(text, path.toLowerCase().endsWith(".tsv") ? "\t" : ",");
      for (const row of rows.slice(1)) out.push(...row);
    } else if (form === "bytes") {
      out.push(
        ...text
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter((l) => l.length >= MIN_LINE),
      );
    }
  } catch {
    out.push(
      ...text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l.length >= MIN_LINE),
    );
  }
  return [...new Set(out.map((s) => s.trim()))].filter(meaningful);
}

function meaningful(s: string): boolean {
  if (/^[-+]?[\d.,eE]+$/.test(s)) return (s.match(/\d/g) ?? []).length >= MIN_DIGITS;
  return s.length >= MIN_TEXT;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

export interface LeakInput {
  /** The spec update this child adds (its section of instruction.md). */
  section: string;
  facts: readonly GroundFact[];
  snapshot: ReadonlyMap<string, Uint8Array>;
  /** Text already public before this update (the parent's instruction, the tree's paths): not a leak. */
  alreadyPublic: string;
}

/**
 * Check (e): the spec update names paths and procedures, never a protected value: no literal of
 * a protected file (unless the task already showed it) and no fact digest appears in it.
 */
export function checkLeak(input: LeakInput): CheckResult {
  const out: Diagnostic[] = [];
  const labels = [...input.section.matchAll(/(?:\*\*|# )(d\d+\.\d+)/g)].map((m) => ({
    at: m.index,
    label: m[1] ?? "",
  }));
  const stepAt = (at: number): string | null => labels.filter((l) => l.at <= at).pop()?.label ?? null;
  for (const f of input.facts) {
    const hit = input.section.indexOf(f.digest);
    if (hit >= 0)
      out.push(diag("leaked-fact", stepAt(hit), `the spec update shows the ground-fact digest of ${f.path}`));
  }
  for (const [path, bytes] of input.snapshot) {
    for (const lit of protectedLiterals(path, bytes)) {
      // Most literals are nowhere in the (short) update: a substring test settles them before a
      // pattern is built (a program task's grader gives hundreds of lines, every child).
      if (!input.section.includes(lit)) continue;
      const re = new RegExp(`(?<![A-Za-z0-9])${escapeRe(lit)}(?![A-Za-z0-9])`);
      const m = re.exec(input.section);
      if (m === null || re.test(input.alreadyPublic)) continue;
      out.push(
        diag(
          "leaked-fact",
          stepAt(m.index),
          `the spec update shows ${JSON.stringify(lit.slice(0, 60))}, a value of ${path}`,
        ),
      );
    }
  }
  return checkResult("leak", out, "no protected value in the spec update");
}
