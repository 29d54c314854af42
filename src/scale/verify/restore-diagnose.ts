import type { PublishedStep } from "../child/spec-update.js";
import { type Diagnostic, diag } from "./diagnostics.js";

/**
 * Relative paths a restore command names: words with a "/" or a file extension, minus the
 * targets of output redirections (those are created, not read) and options.
 */
export function referencedPaths(run: string): string[] {
  const withoutOutputs = run.replace(/\d?>>?\s*(?:'[^']*'|"[^"]*"|\S+)/g, " ");
  const words = withoutOutputs.match(/[A-Za-z0-9._\-/+@%]+/g) ?? [];
  const out = new Set<string>();
  for (const raw of words) {
    const w = raw.replace(/\/+$/, "");
    if (w === "" || w.startsWith("-") || w.startsWith("/") || w.startsWith("..")) continue;
    if (/^[\d.]+$/.test(w)) continue;
    if (w.includes("/") || /\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(w)) out.add(w.replace(/^\.\//, ""));
  }
  return [...out];
}

/**
 * Why a published step failed, told apart mechanically from the entries that existed before it
 * and after each later step (the driver lists them):
 * - unsatisfied-prerequisite: it names a path missing when it ran that a later step creates
 *   (the steps are in the wrong order);
 * - wrong-reference: it names a path that is missing and that no later step creates;
 * - restore-failed: everything it names was there, and it still failed.
 */
export function classifyFailure(
  step: PublishedStep,
  rc: number,
  log: string,
  before: ReadonlySet<string>,
  later: readonly ReadonlySet<string>[],
): Diagnostic {
  const missing = referencedPaths(step.run).filter((p) => !before.has(p));
  const madeLater = missing.filter((p) => later.some((s) => s.has(p)));
  const where = `\`${step.run.split("\n")[0]?.slice(0, 120) ?? ""}\` exited ${rc}`;
  const tail = log === "" ? "" : `: ${log.slice(0, 300)}`;
  if (madeLater.length > 0) {
    return diag(
      "unsatisfied-prerequisite",
      step.label,
      `${where}: it needs ${madeLater.join(", ")}, which only a later step creates${tail}`,
    );
  }
  if (missing.length > 0) {
    return diag("wrong-reference", step.label, `${where}: ${missing.join(", ")} does not exist${tail}`);
  }
  return diag("restore-failed", step.label, `${where}${tail}`);
}

/** Lines (records) of `original` that `restored` lacks, as a multiset difference. */
export function missingRecords(original: Uint8Array, restored: Uint8Array): string[] {
  const dec = new TextDecoder();
  const lines = (b: Uint8Array): string[] =>
    dec
      .decode(b)
      .split(/\r?\n/)
      .filter((l) => l.trim() !== "");
  const have = new Map<string, number>();
  for (const l of lines(restored)) have.set(l, (have.get(l) ?? 0) + 1);
  const lost: string[] = [];
  for (const l of lines(original)) {
    const n = have.get(l) ?? 0;
    if (n > 0) have.set(l, n - 1);
    else lost.push(l);
  }
  return lost;
}
