import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InternalError, UserError } from "../core/errors.js";
import { findPackageRoot } from "../core/package-root.js";
import { readUserText } from "../core/user-files.js";

/**
 * The verifier kit: one Python file, `kit/lh.py` at the package root, copied byte for byte into a
 * task's `tests/lh.py` (docs/grader-kit.md). Its first line names its version; a copy is compared
 * with the kit this longhaul ships.
 */
export const KIT_FILE_NAME = "lh.py";
const HEADER = /^# longhaul verifier kit lh\.py version (\d+)\b/;

/** The canonical kit's path under the package root. */
export function kitPath(root: string = findPackageRoot()): string {
  return join(root, "kit", KIT_FILE_NAME);
}

/** The canonical kit's text and version. */
export function readKit(root?: string): { text: string; version: number } {
  const path = kitPath(root);
  if (!existsSync(path)) throw new InternalError(`verifier kit not found at ${path}`);
  const text = readFileSync(path, "utf8");
  const version = kitVersionOf(text);
  if (version === null) throw new InternalError(`${path}: first line does not name the kit version`);
  return { text, version };
}

/** The version named on a kit copy's first line, or null for a file without the header. */
export function kitVersionOf(text: string): number | null {
  const m = HEADER.exec(text);
  return m === null ? null : Number(m[1]);
}

/**
 * How a task's tests/lh.py compares with the kit: absent (the task does not use it), current
 * (byte for byte), stale (an older version, or a copy from before versioning), edited (the
 * current version's line, other bytes), newer (a version this longhaul does not know), foreign
 * (no version line and not an old copy: a file of the task's own that happens to be named lh.py).
 */
export type KitState = "absent" | "current" | "stale" | "edited" | "newer" | "foreign";

/** How every copy from before the kit had versions began (its docstring's first line). */
const UNVERSIONED_KIT = "Shared verifier code: per-subtask error isolation";

export interface KitStatus {
  state: KitState;
  /** tests/lh.py of the task. */
  file: string;
  /** The copy's version; null when absent or unversioned. */
  version: number | null;
  current: number;
}

export function kitStatus(testsDir: string, kit = readKit()): KitStatus {
  const file = join(testsDir, KIT_FILE_NAME);
  const base = { file, current: kit.version };
  if (!existsSync(file)) return { ...base, state: "absent", version: null };
  // A folder (or a pipe) named lh.py is a UserError naming it, not a stack trace.
  const text = readUserText(file);
  const version = kitVersionOf(text);
  if (text === kit.text) return { ...base, state: "current", version };
  if (version === null && !text.slice(0, 1000).includes(UNVERSIONED_KIT))
    return { ...base, state: "foreign", version };
  if (version === null || version < kit.version) return { ...base, state: "stale", version };
  return { ...base, state: version > kit.version ? "newer" : "edited", version };
}

/** One line for a person: what the copy is and what to do about it. */
export function describeKitStatus(s: KitStatus): string {
  const v = s.version === null ? "an unversioned copy" : `version ${s.version}`;
  switch (s.state) {
    case "absent":
      return `${s.file} absent: the task does not use the verifier kit`;
    case "current":
      return `${s.file} is the current kit (version ${s.current})`;
    case "stale":
      return `${s.file} is a stale kit copy (${v}, current is ${s.current}): run longhaul task kit-update`;
    case "edited":
      return `${s.file} is an edited kit copy (version ${s.current}, bytes differ from the kit): move task code to another file, then longhaul task kit-update --force`;
    case "newer":
      return `${s.file} is kit ${v}, newer than this longhaul's (version ${s.current}): update longhaul`;
    case "foreign":
      return `${s.file} is not the verifier kit (no kit version line): the task's own file`;
  }
}

/** What kit-update did to one task. */
export interface KitUpdate {
  file: string;
  from: KitStatus;
  written: boolean;
}

/**
 * Rewrite testsDir/lh.py with the current kit. An edited or newer copy, or a file of the task's
 * own, is refused without `force` (it would lose someone's work); a current copy is left alone.
 */
export function updateKit(testsDir: string, force = false, kit = readKit()): KitUpdate {
  const from = kitStatus(testsDir, kit);
  if ((from.state === "edited" || from.state === "newer" || from.state === "foreign") && !force) {
    throw new UserError(`${describeKitStatus(from)}; refusing to overwrite it without --force`);
  }
  if (from.state === "current") return { file: from.file, from, written: false };
  if (!existsSync(testsDir)) throw new UserError(`${testsDir}: no tests/ folder`);
  writeFileSync(from.file, kit.text);
  return { file: from.file, from, written: true };
}

/** The task grades with the verifier kit: its tests/lh.py is a kit copy (of any version). */
export function carriesKit(testsDir: string): boolean {
  try {
    const { state } = kitStatus(testsDir);
    return state !== "absent" && state !== "foreign";
  } catch (e) {
    if (e instanceof UserError) return false; // a folder named lh.py is no kit
    throw e;
  }
}
