import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { factOf, groundFacts } from "../../src/scale/facts.js";
import { isTreePath, readTree, treeDigest, writeTree } from "../../src/scale/file-tree.js";
import { applyPlan } from "../../src/scale/plan/apply.js";
import type { FileTree, RestoreStep, Transform, TransformOutput } from "../../src/scale/types.js";

export { sampleEnvironments } from "../scale/sample-environments.js";

const STEP_TIMEOUT_MS = 20_000;

/**
 * The PATH restore steps run with: the caller's, minus version-manager shim folders (pyenv,
 * asdf...) when a real python3 is found elsewhere on it. Shims re-resolve the interpreter on
 * every call (about a second each), and task images have a plain python3 anyway.
 */
function restorePath(): string {
  const all = (process.env.PATH ?? "/usr/bin:/bin").split(":").filter((d) => d !== "");
  const plain = all.filter((d) => !/\/shims\/?$/.test(d));
  const hasPython = plain.some((d) => existsSync(join(d, "python3")));
  return (hasPython ? plain : all).join(":");
}

const RESTORE_PATH = restorePath();

/**
 * Runs restore steps in order with `sh -c` from `dir`, with only PATH in the environment (no HOME,
 * no locale), the way a task's solution would. Throws with the step and its stderr on failure.
 */
export function runRestore(dir: string, steps: readonly RestoreStep[]): void {
  for (const [i, step] of steps.entries()) {
    const r = spawnSync("sh", ["-c", step.run], {
      cwd: dir,
      env: { PATH: RESTORE_PATH },
      timeout: STEP_TIMEOUT_MS,
      encoding: "utf8",
    });
    if (r.status !== 0) {
      const how = r.error ? r.error.message : r.signal ? `signal ${r.signal}` : `exit ${r.status}`;
      throw new Error(`restore step ${i + 1} (${step.why}) failed: ${how}\n$ ${step.run}\n${r.stderr}`);
    }
  }
}

/** Writes `tree` to a fresh temporary folder, runs `steps` there, and returns what is left. */
export function restoreInTemp(tree: FileTree, steps: readonly RestoreStep[]): Map<string, Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), "lh-restore-"));
  try {
    writeTree(dir, tree);
    runRestore(dir, steps);
    return readTree(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A deep copy: fresh map, fresh byte arrays, so identity-dependent behaviour shows up. */
function deepCopy(tree: FileTree): Map<string, Uint8Array> {
  return new Map([...tree].map(([p, b]) => [p, new Uint8Array(b)]));
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a !== undefined && b !== undefined && Buffer.from(a).equals(Buffer.from(b));
}

/** Target sets for one tree, chosen deterministically from the accepted files in path order. */
export function chooseTargets(t: Transform<unknown>, tree: FileTree): string[][] {
  const ok = [...tree.keys()].sort().filter((p) => t.accepts(p, tree.get(p) as Uint8Array));
  if (t.arity === "one") {
    if (ok.length <= 3) return ok.map((p) => [p]);
    return [0, Math.floor(ok.length / 2), ok.length - 1].map((i) => [ok[i] as string]);
  }
  if (ok.length < 2) return [];
  const sets = [[ok[0], ok[ok.length - 1]] as string[]];
  if (ok.length >= 3) sets.push([ok[0], ok[Math.floor(ok.length / 2)], ok[1]].filter(unique) as string[]);
  return sets.filter((s) => s.length >= 2);
}

function unique<T>(v: T, i: number, all: readonly T[]): boolean {
  return all.indexOf(v) === i;
}

/** Absolute paths (`/x`, `~/x`) anywhere a word starts; `/dev/null` is the one allowed. */
const ABSOLUTE = /(?:^|[\s`'"(=:,;<>|])(?:~?\/(?!dev\/null\b)[A-Za-z0-9_.~-])/m;

/** Lines of a target's text (12+ characters) that must not be given away verbatim. */
function protectedLines(bytes: Uint8Array): string[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return [];
  }
  return text
    .split("\n")
    .map((l) => l.replace(/\r$/, ""))
    .filter((l) => l.length >= 12);
}

const SEEDS = [1, 90210] as const;

/**
 * The properties every transform must have, over each sample tree, a deterministic choice of
 * targets and two seeds: deterministic output, parsing parameters, a real change, a restore that
 * brings every target back in canonical form without disturbing other files, honest produced and
 * removed lists, safe access text, an untouched input, and valid paths.
 */
export function describeTransformConformance(t: Transform<unknown>, samples: () => FileTree[]): void {
  describe(`transform ${t.name} conformance`, () => {
    const trees = samples();
    const cases = trees.flatMap((tree, i) => chooseTargets(t, tree).map((targets) => ({ i, tree, targets })));

    it("has well-formed metadata and accepts something in the samples", () => {
      expect(t.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(t.summary.trim().length).toBeGreaterThan(10);
      expect(t.restoreDoc.trim().length).toBeGreaterThan(10);
      expect(cases.length, `${t.name} accepts no file of the sample environments`).toBeGreaterThan(0);
    });

    it.each(SEEDS)("default parameters for seed %i parse with its schema", (seed) => {
      const p = t.defaultParams(seed);
      expect(t.params.safeParse(p).success).toBe(true);
      expect(t.defaultParams(seed)).toEqual(p);
    });

    for (const { i, tree, targets } of cases) {
      for (const seed of SEEDS) {
        it(`sample ${i + 1} [${targets.join(", ")}] seed ${seed}`, () => {
          checkTransformCase(t, tree, targets, seed);
        });
      }
    }
  });
}

/** All conformance checks for one application (exported so tests can show that broken transforms fail). */
export function checkTransformCase(
  t: Transform<unknown>,
  tree: FileTree,
  targets: string[],
  seed: number,
): void {
  const params = t.params.parse(t.defaultParams(seed));
  const input = deepCopy(tree);
  const before = treeDigest(input);
  const out: TransformOutput = t.apply({ env: input, targets, params, seed });
  // (g) the input is not mutated
  expect(treeDigest(input), "apply mutated its input tree").toBe(before);
  expect([...input.keys()].sort()).toEqual([...tree.keys()].sort());

  // (a) deterministic
  const again = t.apply({ env: deepCopy(tree), targets: [...targets], params: t.defaultParams(seed), seed });
  expect(treeDigest(again.env), "same input and seed gave different files").toBe(treeDigest(out.env));
  expect(again.access).toBe(out.access);
  expect(again.restore).toEqual(out.restore);
  expect(again.produced).toEqual(out.produced);
  expect(again.removed).toEqual(out.removed);

  // (h) valid paths
  for (const p of [...out.env.keys(), ...out.produced, ...out.removed]) {
    expect(isTreePath(p), `bad path ${JSON.stringify(p)}`).toBe(true);
  }

  // (e) produced exist, removed are gone and were there
  for (const p of out.produced) expect(out.env.has(p), `produced ${p} missing from the child`).toBe(true);
  for (const p of out.removed) {
    expect(out.env.has(p), `removed ${p} still in the child`).toBe(false);
    expect(tree.has(p), `removed ${p} was not in the parent`).toBe(true);
  }
  for (const p of tree.keys()) {
    if (!out.env.has(p)) expect(out.removed, `${p} vanished without being listed as removed`).toContain(p);
  }

  // (c) something real changed
  const parentFacts = groundFacts(tree, targets);
  expect(treeDigest(out.env)).not.toBe(before);
  const stillReadable = parentFacts.every((f) => {
    const b = out.env.get(f.path);
    return b !== undefined && factOf(f.path, b).digest === f.digest;
  });
  expect(stillReadable, "every target is still readable as is").toBe(false);

  // (f) access text and restore steps are public: relative, and give no protected line away
  expect(out.access.trim().length).toBeGreaterThan(0);
  expect(out.restore.length).toBeGreaterThan(0);
  const publicTexts = [out.access, ...out.restore.flatMap((s) => [s.run, s.why])];
  for (const text of publicTexts) {
    expect(ABSOLUTE.test(text), `absolute path in ${JSON.stringify(text)}`).toBe(false);
  }
  for (const p of targets) {
    for (const line of protectedLines(tree.get(p) as Uint8Array)) {
      for (const text of publicTexts) {
        expect(text.includes(line), `public text gives away a line of ${p}: ${JSON.stringify(line)}`).toBe(
          false,
        );
      }
    }
  }

  // (d) restore round trip from a copy of the child placed elsewhere
  const restored = restoreInTemp(out.env, out.restore);
  for (const p of targets) expect(restored.has(p), `restore did not bring back ${p}`).toBe(true);
  expect(groundFacts(restored, targets), "restored facts differ from the parent's").toEqual(parentFacts);
  const removed = new Set(out.removed);
  for (const [p, bytes] of tree) {
    if (targets.includes(p) || removed.has(p)) continue;
    expect(sameBytes(restored.get(p), bytes), `non-target ${p} changed or vanished`).toBe(true);
  }
}

/**
 * An executable target (mode 0755 in the parent) is executable again after the restore steps of
 * a plan step bound to it, as a child publishes them: the child's files are written as a child is
 * (bytes only; a file at the same path as the parent's keeps its execute bits), the restore steps
 * run, and each target must have all three execute bits. Returns the targets that lack them.
 */
export function targetsLosingMode(
  t: Transform<unknown>,
  tree: FileTree,
  targets: string[],
  seed: number,
): string[] {
  const params: unknown = JSON.parse(JSON.stringify(t.defaultParams(seed)) ?? "null");
  const plan = {
    proposer: "seeded",
    library: "full" as const,
    seed,
    steps: [{ transform: t.name, targets, params, seed }],
  };
  const applied = applyPlan(tree, plan, new Map(targets.map((p) => [p, 0o111])));
  const restore = applied.steps.flatMap((s) => s.restore);
  const dir = mkdtempSync(join(tmpdir(), "lh-restore-mode-"));
  try {
    writeTree(dir, applied.env);
    for (const p of targets) if (applied.env.has(p)) chmodSync(join(dir, p), 0o755);
    runRestore(dir, restore);
    return targets.filter((p) => (statSync(join(dir, p)).mode & 0o111) !== 0o111);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
