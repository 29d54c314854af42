import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Document, isMap, isNode, isScalar, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { fsProblem, readUserBytes, UserError } from "../../core/index.js";
import { createWorld, type World } from "../build/world.js";
import { type Problem, taskProblems } from "./references.js";
import { type WorldTaskSpec, worldTaskSchema } from "./schema.js";
import { roundZeroTraps } from "./verify.js";

type Path = ReadonlyArray<string | number>;

/** `team[2].inventory[0].qty` */
export function formatPath(path: Path): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out === "" ? p : `.${p}`;
  return out || "(top)";
}

/**
 * Reads and validates one task file: YAML, then the schema, then every reference to items,
 * roles, mobs, NPCs, harvest points and agents against the world (the default generated world
 * unless one is given). Errors are UserErrors naming the file, the YAML path and the line.
 */
export function loadWorldTask(file: string, world: World = createWorld()): WorldTaskSpec {
  return parseWorldTask(readTaskText(file), file, world);
}

/**
 * A task file's text, decoded strictly: a lenient decode would hand agents U+FFFD in their goals
 * and documents without anyone noticing, so bytes that are not UTF-8 are the file's error.
 */
export function readTaskText(file: string): string {
  return decodeTaskText(readUserBytes(file), file);
}

/** Strict UTF-8 of a task file's bytes; the error names the first line that does not decode. */
export function decodeTaskText(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UserError(`${file}: line ${badUtf8Line(bytes)}: invalid UTF-8`);
  }
}

/** The 1-based line holding the first byte sequence that is not UTF-8 (lines split on LF bytes). */
function badUtf8Line(bytes: Uint8Array): number {
  const strict = new TextDecoder("utf-8", { fatal: true });
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      strict.decode(bytes.subarray(start, i));
    } catch {
      return line;
    }
    line++;
    start = i + 1;
  }
  return line;
}

/** Validates task YAML text; `file` only labels errors. */
export function parseWorldTask(text: string, file: string, world: World = createWorld()): WorldTaskSpec {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError !== undefined) {
    const at = lines.linePos(yamlError.pos[0]);
    throw new UserError(`${file}: line ${at.line}: ${yamlError.message.split("\n")[0] ?? "bad YAML"}`);
  }
  const lineOf = (path: Path): number | null => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range !== undefined && node.range !== null)
        return lines.linePos(node.range[0]).line;
    }
    return null;
  };
  const fail = (p: Problem & { at?: Path }): never => {
    const line = (p.at === undefined ? null : keyLine(doc, p.at, lines)) ?? lineOf(p.path);
    throw new UserError(
      `${file}: ${formatPath(p.path)}${line === null ? "" : ` (line ${line})`}: ${p.message}`,
    );
  };
  const parsed = worldTaskSchema.safeParse(toJS(doc, file));
  if (!parsed.success) fail(explain(parsed.error.issues));
  const spec = parsed.data as WorldTaskSpec;
  const problem = taskProblems(spec, world)[0];
  if (problem !== undefined) fail(problem);
  return spec;
}

/**
 * The document's value. Resolving aliases can still fail (yaml refuses an "alias bomb" of nested
 * references here, not while parsing): whatever the parser refuses is the file's fault.
 */
function toJS(doc: Document, file: string): unknown {
  try {
    return doc.toJS();
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw new UserError(`${file}: invalid YAML: ${detail.split("\n")[0] ?? detail}`, { cause: e });
  }
}

/** The line of a mapping key itself (not of its value, which may start lines later), or null. */
function keyLine(doc: Document, path: Path, lines: LineCounter): number | null {
  const last = path.at(-1);
  if (typeof last !== "string") return null;
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
  if (!isMap(parent)) return null;
  const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
  const range = isScalar(pair?.key) ? pair.key.range : null;
  return range === null || range === undefined ? null : lines.linePos(range[0]).line;
}

/**
 * The most specific reading of a schema failure. A predicate that fails every branch of the union
 * is reported through the branch its key chose (`holds.qty: …`), not as "invalid input".
 */
function explain(issues: readonly z.core.$ZodIssue[], base: Path = []): Problem & { at?: Path } {
  const issue = issues[0];
  if (issue === undefined) return { path: base, message: "invalid" };
  const path = [...base, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))];
  // An unknown key is reported on its own line, not on the line its enclosing block starts.
  const unknown = issue.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  if (unknown !== undefined) return { path, at: [...path, unknown], message: issue.message };
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    // Branches that got past the key check have issues below the predicate's own level.
    const chosen = issue.errors.find((b) => b.length > 0 && b.every((i) => i.path.length > 0));
    if (chosen !== undefined) return explain(chosen, path);
    return {
      path,
      message:
        "expected one predicate: holds, equipped, crafted, gathered, killed, visited, delivered, all_alive, within_rounds, custom, all, any or not",
    };
  }
  return { path, message: issue.message };
}

/**
 * Every `*.yaml` task under a folder (recursively), sorted by path. Ids must be unique, and a
 * task whose success condition or checkpoints already hold at round 0 is rejected.
 */
export function loadWorldTasks(dir: string, world: World = createWorld()): WorldTaskSpec[] {
  const files = yamlFiles(dir);
  if (files.length === 0) throw new UserError(`${dir}: no *.yaml world tasks found`);
  const seen = new Map<string, string>();
  return files.map((file) => {
    const spec = loadWorldTask(file, world);
    const other = seen.get(spec.id);
    if (other !== undefined) throw new UserError(`${file}: id: "${spec.id}" is also the id of ${other}`);
    seen.set(spec.id, file);
    const traps = roundZeroTraps(spec, world);
    if (traps.length > 0)
      throw new UserError(`${file}: already true at round 0 (nothing done yet): ${traps.join(", ")}`);
    return spec;
  });
}

/**
 * The task files a command is given: each path a file, or a folder searched for `*.yaml`
 * recursively. A missing path is a UserError; none found at all is one too.
 */
export function worldTaskFiles(paths: readonly string[]): string[] {
  const files = paths.flatMap((p) => {
    let dir: boolean;
    try {
      dir = statSync(p).isDirectory();
    } catch {
      throw new UserError(`${p}: no such file or folder`);
    }
    return dir ? yamlFiles(p) : [p];
  });
  if (files.length === 0) throw new UserError(`no *.yaml world tasks in ${paths.join(", ")}`);
  return files;
}

export function yamlFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new UserError(`${dir}: cannot read: ${(e as Error).message}`);
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    const p = join(dir, name);
    // A dangling symlink (or an entry removed meanwhile) is the folder's problem, told as `run`
    // tells a missing path, not an internal error.
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch (e) {
      const problem = fsProblem(e, p);
      if (problem === null) throw e;
      throw new UserError(problem, { cause: e });
    }
    if (isDir) out.push(...yamlFiles(p));
    else if (name.endsWith(".yaml") || name.endsWith(".yml")) out.push(p);
  }
  return out;
}
