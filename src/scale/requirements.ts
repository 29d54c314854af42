import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../core/errors.js";
import { detectProgram } from "./channel/detect-program.js";
import { CHANNEL_DECL, CHANNEL_DIR } from "./channel/materialize.js";
import { parseSpecUpdates } from "./child/spec-update.js";
import { groundFacts } from "./facts.js";
import { byPath, CHILD, filesDigest, RESERVED_TEST_NAMES, readTaskFolder, sha256Hex } from "./layout.js";
import { readTaskTreeOf } from "./task-tree.js";
import type { FileTree, GroundFact } from "./types.js";

/**
 * What no child may change, extracted before any planning: the goal text, the checks (tests/ and
 * the rubric), which environment files the checks read, and those files' ground facts.
 */
export interface ProtectedRequirements {
  goalDigest: string;
  testsDigest: string;
  rubricDigest: string;
  /** Protected environment paths (relative to the workdir): those the tests read, else the data files the instruction or solution names. */
  reads: string[];
  facts: GroundFact[];
}

export interface TaskRequirements {
  protected: ProtectedRequirements;
  /** The original bytes of every read file (the root's files; a child keeps them in its snapshot). */
  snapshot: Map<string, Uint8Array>;
  /** tests/ as the root task has it (a child's wrapper replaced by the original test.sh). */
  originalTests: Map<string, Uint8Array>;
  isChild: boolean;
}

export function isChildTask(taskDir: string): boolean {
  return existsSync(join(taskDir, CHILD.resJson));
}

/** Protected requirements of a root task or of a RES child (whose tests/ carries the root's originals). */
export function extractRequirements(taskDir: string): TaskRequirements {
  const tests = readTaskFolder(taskDir, "tests");
  const instruction = readFileSync(join(taskDir, "instruction.md"), "utf8");
  const isChild = isChildTask(taskDir);
  let snapshot: Map<string, Uint8Array>;
  let originalTests: Map<string, Uint8Array>;
  if (isChild && tests.has(CHANNEL_DECL)) {
    // A program task's child: the root's tests/ plus the channel under tests/res/, no snapshot.
    originalTests = new Map([...tests].filter(([p]) => !p.startsWith(`${CHANNEL_DIR}/`)));
    snapshot = new Map();
  } else if (isChild) {
    originalTests = new Map();
    snapshot = new Map();
    const snapPrefix = `${CHILD.snapshotDir}/`;
    for (const [p, b] of tests) {
      if (p.startsWith(snapPrefix)) snapshot.set(p.slice(snapPrefix.length), b);
      else if (p === CHILD.parentTest) originalTests.set("test.sh", b);
      else if (p !== "test.sh") originalTests.set(p, b);
    }
  } else {
    const clash = [...tests.keys()].find((p) =>
      RESERVED_TEST_NAMES.some((r) => p === r || p.startsWith(`${r}/`)),
    );
    if (clash !== undefined) {
      throw new UserError(`${join(taskDir, "tests", clash)}: RES keeps its own files under this name`);
    }
    originalTests = tests;
    const { tree, workdir } = readTaskTreeOf(taskDir);
    // A grader that runs the agent's program on generated inputs makes a program task (kind (b)),
    // scaled through its input channel: its environment is never transformed, so nothing in it is
    // protected, even when the tests mention workdir files (the public examples, say).
    const reads =
      detectProgram(join(taskDir, "tests"), workdir) !== null
        ? []
        : protectedReads(tests, workdir, tree, instruction, readTaskFolder(taskDir, "solution"));
    snapshot = new Map(reads.map((p) => [p, tree.get(p) ?? new Uint8Array()]));
  }
  const rubric = originalTests.get("rubric.toml");
  return {
    protected: {
      goalDigest: sha256Hex(parseSpecUpdates(instruction).goal.trimEnd()),
      testsDigest: filesDigest(originalTests),
      rubricDigest: rubric === undefined ? "none" : sha256Hex(rubric),
      reads: [...snapshot.keys()].sort(byPath),
      facts: groundFacts(snapshot),
    },
    snapshot,
    originalTests,
    isChild,
  };
}

/**
 * The environment files a child protects: those the tests read; or, when the tests name none
 * (they compare the agent's outputs with answers of their own, as most Harbor tasks do), the
 * environment's data files the instruction or the reference solution names, the inputs the work
 * reads. Program and script files are left out there: they are what such an agent edits.
 */
export function protectedReads(
  tests: FileTree,
  workdir: string,
  tree: FileTree,
  instruction: string,
  solution: FileTree,
): string[] {
  const read = scanTestReads(tests, tree, workdir);
  if (read.length > 0) return read;
  const texts = new Map(solution);
  texts.set("\0instruction.md", new TextEncoder().encode(instruction));
  return scanTestReads(texts, tree, workdir).filter((p) => !isCodeFile(p));
}

const CODE_EXTENSIONS = new Set(
  "py pyw sh bash zsh js mjs cjs ts tsx jsx c h cc cpp hpp rs go java kt rb pl pm php lua r jl scala swift cs mk".split(
    " ",
  ),
);

/** A program or script, by its extension or its name (Makefile, Dockerfile). */
function isCodeFile(path: string): boolean {
  const base = path.split("/").pop() ?? path;
  if (/^(Makefile|GNUmakefile|Dockerfile|Containerfile)$/.test(base)) return true;
  const dot = base.lastIndexOf(".");
  return dot > 0 && CODE_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}

const BEFORE = "(?:^|[\\s\"'`(=:,\\[{<>])";
// A sentence's full stop ends a name too ("read /app/data.csv."), but not an extension ("data.csv.gz").
const AFTER = "(?=$|[\\s\"'`)\\]},;:>|&]|\\.(?:\\s|$))";

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Environment files the tests read: every tree path a tests/ text file names, as an absolute
 * workdir path ("/app/data/orders.csv"), as a relative path ("data/orders.csv"), as a quoted file
 * name when that name is unique in the tree, or through a named folder ("/app/data/", "/app/data/*").
 */
export function scanTestReads(tests: FileTree, tree: FileTree, workdir: string): string[] {
  const texts = [...tests.values()].filter((b) => !b.includes(0)).map((b) => new TextDecoder().decode(b));
  const wd = workdir.replace(/\/$/, "");
  const baseCount = new Map<string, number>();
  for (const p of tree.keys()) {
    const base = p.split("/").pop() ?? p;
    baseCount.set(base, (baseCount.get(base) ?? 0) + 1);
  }
  const found = new Set<string>();
  const dirs = new Set<string>();
  for (const p of tree.keys()) {
    const parts = p.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  const named = (re: RegExp): boolean => texts.some((t) => re.test(t));
  for (const p of tree.keys()) {
    const base = p.split("/").pop() ?? p;
    const pats = [
      new RegExp(`${escapeRe(`${wd}/${p}`)}${AFTER}`, "m"),
      new RegExp(`${BEFORE}${escapeRe(p)}${AFTER}`, "m"),
    ];
    if (base.includes(".") && baseCount.get(base) === 1)
      pats.push(new RegExp(`["'\`]${escapeRe(base)}["'\`]`));
    if (pats.some(named)) found.add(p);
  }
  for (const d of dirs) {
    if (!named(new RegExp(`${escapeRe(`${wd}/${d}`)}(?:/[*"'\`\\s]|/?${AFTER})`, "m"))) continue;
    for (const p of tree.keys()) if (p.startsWith(`${d}/`)) found.add(p);
  }
  return [...found].sort(byPath);
}
