import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorMessage, InfraError } from "../../core/errors.js";
import type { SandboxProvider } from "../../sandbox/types.js";
import type { PublishedStep } from "../child/spec-update.js";
import { canonicalDigest } from "../facts.js";
import { writeTree } from "../file-tree.js";
import type { FileTree, GroundFact } from "../types.js";
import { type CheckResult, checkResult, type Diagnostic, diag } from "./diagnostics.js";
import { classifyFailure, missingRecords } from "./restore-diagnose.js";

/** Where the tree is placed in the check's sandbox: not the task's workdir, so absolute paths fail. */
const ROOT = "/restore-check";
const DRIVER = "/tmp/res-driver";

/**
 * Runs each step, from the tree's root and in order, recording its exit status, its output and
 * the entries that exist after it (state 000 is before the first step).
 */
const RUN_SH = `#!/bin/sh
root="$(pwd)"
out=${DRIVER}/out
mkdir -p "$out"
list() { (cd "$root" && find . -mindepth 1 | sed 's|^\\./||' | LC_ALL=C sort) > "$out/$1.files"; }
list 000
n=0
for s in ${DRIVER}/steps/*.sh; do
  [ -e "$s" ] || continue
  n=$((n + 1))
  i=$(printf %03d "$n")
  (cd "$root" && sh "$s") > "$out/$i.log" 2>&1
  echo $? > "$out/$i.rc"
  list "$i"
done
`;

export interface RestoreCheckInput {
  tree: FileTree;
  chain: readonly PublishedStep[];
  facts: readonly GroundFact[];
  /** The original bytes of the protected files (to say which records went missing). */
  snapshot: ReadonlyMap<string, Uint8Array>;
  provider: SandboxProvider;
  signal?: AbortSignal;
}

/**
 * Check (c): in a fresh sandbox holding only the child's environment, following the published
 * restore steps (and nothing else) brings back every protected fact.
 */
export async function checkRestore(input: RestoreCheckInput): Promise<CheckResult> {
  const scratch = mkdtempSync(join(tmpdir(), "longhaul-res-restore-"));
  try {
    const envDir = join(scratch, "env");
    writeTree(envDir, input.tree);
    const driver = join(scratch, "driver");
    mkdirSync(join(driver, "steps"), { recursive: true });
    writeFileSync(join(driver, "run.sh"), RUN_SH);
    input.chain.forEach((s, i) => {
      writeFileSync(join(driver, "steps", `${String(i + 1).padStart(3, "0")}.sh`), `${s.run}\n`);
    });
    const sandbox = await input.provider.create({
      environmentDir: envDir,
      workdir: ROOT,
      memoryMb: 1024,
      cpus: 1,
      pidsMax: 1024,
      allowInternet: false,
      storageMb: 2048,
      stateDir: join(scratch, "state"),
    });
    const outDir = join(scratch, "out");
    const finalDir = join(scratch, "final");
    try {
      await sandbox.upload(driver, DRIVER);
      const r = await sandbox.exec(["sh", `${DRIVER}/run.sh`], {
        timeoutSec: 600,
        cwd: ROOT,
        signal: input.signal,
      });
      if (r.timedOut || r.exitCode !== 0) {
        throw new InfraError(
          `restore check driver ${r.timedOut ? "timed out" : `exited ${r.exitCode}`}: ${r.stderr.slice(-300)}`,
        );
      }
      await sandbox.download(`${DRIVER}/out`, outDir);
      await sandbox.download(ROOT, finalDir);
    } finally {
      await sandbox.close();
    }
    return judge(input, outDir, finalDir);
  } catch (e) {
    if (e instanceof InfraError) throw e;
    throw new InfraError(`restore check could not run: ${errorMessage(e)}`, { cause: e });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function judge(input: RestoreCheckInput, outDir: string, finalDir: string): CheckResult {
  const n = input.chain.length;
  const states: Set<string>[] = [];
  for (let i = 0; i <= n; i++) {
    const f = join(outDir, `${String(i).padStart(3, "0")}.files`);
    states.push(new Set(existsSync(f) ? readFileSync(f, "utf8").split("\n").filter(Boolean) : []));
  }
  const out: Diagnostic[] = [];
  input.chain.forEach((step, i) => {
    const id = String(i + 1).padStart(3, "0");
    const rc = Number(readFileSync(join(outDir, `${id}.rc`), "utf8").trim());
    if (rc === 0) return;
    const log = readFileSync(join(outDir, `${id}.log`), "utf8")
      .trim()
      .split("\n")
      .slice(-3)
      .join(" | ");
    out.push(classifyFailure(step, rc, log, states[i] ?? new Set(), states.slice(i + 1)));
  });
  // With a failed step the protected files' state follows from it; report the cause, not its echoes.
  if (out.length > 0) return checkResult("restore", out, "");
  for (const fact of input.facts) {
    const abs = join(finalDir, ...fact.path.split("/"));
    if (!existsSync(abs) || !lstatSync(abs).isFile()) {
      out.push(diag("missing-fact", null, `after every restore step ${fact.path} is not there`));
      continue;
    }
    const bytes = new Uint8Array(readFileSync(abs));
    let digest: string | null;
    try {
      digest = canonicalDigest(fact.path, bytes, fact.form);
    } catch {
      digest = null;
    }
    if (digest === fact.digest) continue;
    const original = input.snapshot.get(fact.path);
    const lost = original === undefined ? [] : missingRecords(original, bytes);
    out.push(
      lost.length > 0
        ? diag(
            "missing-record",
            null,
            `${fact.path} came back without ${lost.length} original record(s), e.g. ${JSON.stringify(lost[0]?.slice(0, 80))}`,
          )
        : diag(
            "fact-mismatch",
            null,
            `${fact.path} came back, but its ${fact.form} content is not the original`,
          ),
    );
  }
  return checkResult("restore", out, `${n} public step(s) restored ${input.facts.length} protected file(s)`);
}
