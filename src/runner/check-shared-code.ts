import { existsSync, readdirSync, readFileSync, realpathSync, type Stats, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import type { Task } from "../task/types.js";
import { kitVersionOf } from "../task/verifier-kit.js";
import type { CheckItem } from "./check-task.js";

/**
 * A grader must not reuse the solution's code path (docs/tasks.md#independent-graders): expected
 * values that come from running the solution's own code agree with the solution by construction,
 * so a wrong rule in both goes unseen. This check finds blocks of source shared between a file
 * under tests/ and a file under solution/ (mutants included: they are patched copies of the
 * solution). It reads files only: milliseconds, no sandbox.
 *
 * Window: 6 normalised lines (imports, blank lines, comments, lone brackets and one-word control
 * lines left out, white space removed). Measured over the first 13 bundled tasks (their 1.0 versions): apart from real copies,
 * the longest run a grader shares with its solution is 3 lines (a guard `n = b + c; if n == 0:
 * return 1.0` in metric-table-repro), and 4 lines where both follow a formula the PNG
 * specification fixes (blob-count's Paeth predictor); test.sh and the graders' harness share
 * nothing with any solution. The verifier kit (tests/lh.py, a file whose first line names the kit
 * version) is longhaul's, not the author's, and is not compared: its PNG codec and CSV reader may
 * well match a solution's. Every real copy found (7 tasks) is 6 lines or longer, and twice the
 * longest incidental run keeps a margin. A block must also hold MIN_BLOCK_CHARS characters, so
 * six short statements (`i+=1`, `returnx`) never count on their own.
 *
 * Exact matching after normalisation: re-indented, re-commented and re-spaced copies are caught;
 * a copy whose identifiers were renamed is not. Matching shapes instead of names flags code that
 * is independent but alike: in orbit-propagate 1.0, the bracket update of its two
 * safeguarded Newton loops (different equations, different variables) is a 6-line shape match.
 * Each task's tests/README.md says where its expected values come from, for a reviewer.
 */
export const SHARED_WINDOW = 6;
export const MIN_BLOCK_CHARS = 60;

/** Files larger than this are data, not code, and are not read. */
const MAX_FILE_BYTES = 512 * 1024;

/** Source files by extension; a file without one counts when it starts with `#!`. */
const SOURCE_EXT = new Set([
  ".py",
  ".sh",
  ".bash",
  ".js",
  ".mjs",
  ".cjs",
  ".ts",
  ".c",
  ".h",
  ".cc",
  ".cpp",
  ".hpp",
  ".rs",
  ".go",
  ".java",
  ".rb",
  ".pl",
  ".r",
  ".jl",
  ".lua",
  ".awk",
]);

/** Languages whose comments start with `//` (and `/* … *\/`); every other source uses `#`. */
const SLASH_EXT = new Set([
  ".js",
  ".mjs",
  ".cjs",
  ".ts",
  ".c",
  ".h",
  ".cc",
  ".cpp",
  ".hpp",
  ".rs",
  ".go",
  ".java",
]);

/** Lines that say nothing about the algorithm, after normalisation (whitespace removed). */
const TRIVIAL = new Set([
  "else:",
  "try:",
  "finally:",
  "pass",
  "return",
  "break",
  "continue",
  "fi",
  "done",
  "then",
  "do",
  "esac",
  "else",
  "set-euopipefail",
  "set-e",
  'if__name__=="__main__":',
  "if__name__=='__main__':",
  "main()",
  "PY",
  "EOF",
]);
const IMPORT = /^(import\s|from\s+\S+\s+import\s|#include|use\s|using\s|package\s|.*\brequire\()/;
const PUNCTUATION_ONLY = /^[\s{}()[\];,:.]*$/;

/** One normalised line and where it came from (1-based). */
interface SourceLine {
  text: string;
  line: number;
}

interface SourceFile {
  path: string;
  lines: SourceLine[];
}

/** How long a shared run must be to count: normalised lines, and characters over those lines. */
export interface WindowSize {
  lines: number;
  chars: number;
}

/** A block found in both trees: the file pair, line ranges (1-based, inclusive) and its length. */
export interface SharedBlock {
  tests: { path: string; from: number; to: number };
  solution: { path: string; from: number; to: number };
  lines: number;
  /** Characters over the block's normalised lines (white space removed). */
  chars: number;
}

/** The check as `task check` reports it: fails on any shared block, naming both files and lines. */
export function sharedCodeCheck(task: Task): CheckItem {
  const root = join(task.paths.tests, "..");
  // A scaled child (docs/scale.md) carries longhaul's channel kit and the protected snapshot in
  // tests/res/ and the same kit in solution/res/: written by `longhaul scale`, not by the task's
  // author, one side presenting the hidden inputs and the other restoring them. The parent's own
  // files beside them are still compared.
  const skip = existsSync(join(root, "res.json")) ? ["res"] : [];
  const blocks = findSharedCode(task.paths.tests, task.paths.solution, root, undefined, skip);
  const name = "tests/ shares no code with solution/";
  if (blocks.length === 0) return { name, ok: true, detail: `no block of ${SHARED_WINDOW} lines in common` };
  const shown = blocks.slice(0, 5).map(describeBlock);
  const more = blocks.length > shown.length ? `; and ${blocks.length - shown.length} more` : "";
  return { name, ok: false, detail: `${shown.join("; ")}${more}` };
}

export function describeBlock(b: SharedBlock): string {
  return `${b.tests.path}:${b.tests.from}-${b.tests.to} repeats ${b.solution.path}:${b.solution.from}-${b.solution.to} (${b.lines} lines)`;
}

/**
 * Every maximal block of at least SHARED_WINDOW normalised lines that appears in a source file
 * under `testsDir` and one under `solutionDir`; paths are shown relative to `root`.
 */
export function findSharedCode(
  testsDir: string,
  solutionDir: string,
  root: string,
  size: WindowSize = { lines: SHARED_WINDOW, chars: MIN_BLOCK_CHARS },
  skipTopDirs: readonly string[] = [],
): SharedBlock[] {
  const solution = sourceFiles(solutionDir, root, skipTopDirs);
  const index = new Map<string, { file: number; at: number }[]>();
  solution.forEach((f, file) => {
    for (const [at, key] of windows(f.lines, size)) {
      const hits = index.get(key) ?? [];
      hits.push({ file, at });
      index.set(key, hits);
    }
  });
  const blocks: SharedBlock[] = [];
  for (const t of sourceFiles(testsDir, root, skipTopDirs)) {
    // Window starts matched so far, per solution file and diagonal (solution index - tests index),
    // so consecutive matching windows merge into one block.
    const runs = new Map<string, { file: number; tFrom: number; sFrom: number; tTo: number }>();
    for (const [at, key] of windows(t.lines, size)) {
      for (const hit of index.get(key) ?? []) {
        const id = `${hit.file}:${hit.at - at}`;
        const run = runs.get(id);
        if (run && run.tTo === at - 1) run.tTo = at;
        else {
          if (run) blocks.push(toBlock(t, solution, run, size.lines));
          runs.set(id, { file: hit.file, tFrom: at, sFrom: hit.at, tTo: at });
        }
      }
    }
    for (const run of runs.values()) blocks.push(toBlock(t, solution, run, size.lines));
  }
  return blocks
    .filter((b) => b.chars >= size.chars)
    .sort((a, b) => b.lines - a.lines || a.tests.path.localeCompare(b.tests.path));
}

function toBlock(
  t: SourceFile,
  solution: readonly SourceFile[],
  run: { file: number; tFrom: number; sFrom: number; tTo: number },
  window: number,
): SharedBlock {
  const s = solution[run.file] as SourceFile;
  const n = run.tTo - run.tFrom + window;
  const line = (f: SourceFile, i: number): number => f.lines[i]?.line ?? 0;
  const chars = t.lines.slice(run.tFrom, run.tFrom + n).reduce((sum, l) => sum + l.text.length, 0);
  return {
    chars,
    tests: { path: t.path, from: line(t, run.tFrom), to: line(t, run.tFrom + n - 1) },
    solution: { path: s.path, from: line(s, run.sFrom), to: line(s, run.sFrom + n - 1) },
    lines: n,
  };
}

/** Each window of `size.lines` consecutive lines: its start and its text. */
function* windows(lines: readonly SourceLine[], size: WindowSize): Generator<[number, string]> {
  for (let i = 0; i + size.lines <= lines.length; i++) {
    const key = lines
      .slice(i, i + size.lines)
      .map((l) => l.text)
      .join("\n");
    yield [i, key];
  }
}

function sourceFiles(dir: string, root: string, skipTopDirs: readonly string[] = []): SourceFile[] {
  const out: SourceFile[] = [];
  // Links are followed (a tests/ file linked to a solution file is a copy), each folder once and
  // never one holding `dir`: a link back up the tree (`tests/up -> ..`) would otherwise be walked
  // until the path is too long, and would bring the other side's files in as this side's.
  const seen = new Set<string>();
  let top = "";
  const walk = (d: string): void => {
    let entries: string[];
    try {
      const real = realpathSync(d);
      if (d === dir) top = real;
      else if (seen.has(real) || top.startsWith(`${real}${sep}`) || real === top) return;
      seen.add(real);
      entries = readdirSync(d).sort();
    } catch {
      return; // a task without solution/ (or tests/) has nothing to compare
    }
    for (const name of entries) {
      const path = join(d, name);
      let st: Stats | undefined;
      try {
        st = statSync(path, { throwIfNoEntry: false });
      } catch {
        continue; // a link loop or one that cannot be followed holds no source
      }
      if (!st) continue;
      if (st.isDirectory()) {
        if (d !== dir || !skipTopDirs.includes(name)) walk(path);
      } else if (st.isFile() && st.size <= MAX_FILE_BYTES) {
        const ext = extname(name).toLowerCase();
        // Data (csv, png, gz, …) is never read; a file without an extension counts as a script by its `#!`.
        if (ext !== "" && !SOURCE_EXT.has(ext)) continue;
        const text = readFileSync(path, "utf8");
        if (text.includes("\0") || (ext === "" && !text.startsWith("#!"))) continue;
        if (kitVersionOf(text) !== null) continue;
        out.push({ path: relative(root, path), lines: normalise(text, SLASH_EXT.has(ext)) });
      }
    }
  };
  walk(dir);
  return out;
}

/**
 * A file's meaningful lines: comments, docstrings and all whitespace removed; blank lines,
 * imports, lone brackets and one-word control lines dropped.
 */
export function normalise(text: string, slashComments: boolean): SourceLine[] {
  const out: SourceLine[] = [];
  let docstring: string | null = null;
  let blockComment = false;
  text.split("\n").forEach((raw, i) => {
    let s = raw.trim();
    if (docstring !== null) {
      if (s.includes(docstring)) docstring = null;
      return;
    }
    if (!slashComments && (s.startsWith('"""') || s.startsWith("'''"))) {
      const quote = s.slice(0, 3);
      if (s.length < 6 || !s.slice(3).includes(quote)) docstring = quote;
      return;
    }
    if (slashComments) {
      if (blockComment) {
        const end = s.indexOf("*/");
        if (end < 0) return;
        blockComment = false;
        s = s.slice(end + 2);
      }
      const start = s.indexOf("/*");
      if (start >= 0 && !s.includes("*/", start)) {
        blockComment = true;
        s = s.slice(0, start);
      }
    }
    const text = stripComment(s, slashComments ? "//" : "#").replace(/\s+/g, "");
    if (text === "" || TRIVIAL.has(text) || PUNCTUATION_ONLY.test(text) || IMPORT.test(s)) return;
    out.push({ text, line: i + 1 });
  });
  return out;
}

/** The line up to its comment marker outside quotes (a `#` inside a string or `$#` stays). */
function stripComment(s: string, marker: string): string {
  let quote = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (s.startsWith(marker, i) && (marker !== "#" || i === 0 || /[\s;]/.test(s[i - 1] ?? ""))) {
      return s.slice(0, i);
    }
  }
  return s;
}
