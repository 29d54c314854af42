import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorMessage, InfraError } from "../../core/errors.js";
import type { SandboxProvider } from "../../sandbox/types.js";
import type { InputKind } from "../channel/steps.js";
import { byPath } from "../layout.js";
import type { FileTree } from "../types.js";
import { type CheckResult, checkResult, type Diagnostic, diag } from "./diagnostics.js";

/** Where the check's files sit in its sandbox (not the task's workdir). */
const ROOT = "/restore-check";

/**
 * Presents the sample through the child's channel with the child's own kit, restores it, and
 * prints the restored files' digests (a JSON object: relative path, or "" for a single file, to
 * sha256), plus whether presenting changed anything.
 */
const DRIVER = `
import hashlib, json, os, sys, tempfile
sys.path.insert(0, os.path.join(${JSON.stringify(ROOT)}, "kit"))
import res_channel as c
decl = c.load(os.path.join(${JSON.stringify(ROOT)}, "kit", "channel.json"))
src = sys.argv[1]
def digests(p):
    if os.path.isfile(p):
        return {"": hashlib.sha256(open(p, "rb").read()).hexdigest()}
    return {r: hashlib.sha256(open(os.path.join(p, r), "rb").read()).hexdigest() for r in c._files(p)}
shown = c.present(src, decl["steps"], tempfile.mkdtemp(prefix="present-"))
back = c.restore(shown, decl["steps"], tempfile.mkdtemp(prefix="restore-"))
print(json.dumps({"changed": digests(shown) != digests(src), "restored": digests(back)}))
`;

export interface ChannelRestoreInput {
  /** The child's tests/res/res_channel.py and tests/res/channel.json, as the child has them. */
  kit: Uint8Array;
  decl: Uint8Array;
  /** A sample input: files of a folder input (relative paths), or one file under the key "". */
  sample: FileTree;
  provider: SandboxProvider;
  signal?: AbortSignal;
}

function sha(b: Uint8Array): string {
  return createHash("sha256").update(b).digest("hex");
}

/**
 * Check (c) for a program task: in a fresh sandbox, a sample input put through the child's channel
 * (present, as the verifier does) and back (restore, as the reference wrapper does) comes back
 * with the same bytes, file for file.
 */
export async function checkChannelRestore(input: ChannelRestoreInput): Promise<CheckResult> {
  const scratch = mkdtempSync(join(tmpdir(), "longhaul-res-channel-"));
  try {
    const env = join(scratch, "env");
    mkdirSync(join(env, "kit"), { recursive: true });
    writeFileSync(join(env, "kit", "res_channel.py"), input.kit);
    writeFileSync(join(env, "kit", "channel.json"), input.decl);
    writeFileSync(join(env, "driver.py"), DRIVER);
    const single = input.sample.get("");
    const target = single !== undefined ? "sample.txt" : "sample";
    if (single !== undefined) writeFileSync(join(env, target), single);
    for (const [p, b] of input.sample) {
      if (p === "") continue;
      mkdirSync(join(env, target, p, ".."), { recursive: true });
      writeFileSync(join(env, target, p), b);
    }
    const sandbox = await input.provider.create({
      environmentDir: env,
      workdir: ROOT,
      memoryMb: 1024,
      cpus: 1,
      pidsMax: 1024,
      allowInternet: false,
      storageMb: 2048,
      stateDir: join(scratch, "state"),
    });
    let r: Awaited<ReturnType<typeof sandbox.exec>>;
    try {
      r = await sandbox.exec(["python3", "-I", `${ROOT}/driver.py`, `${ROOT}/${target}`], {
        timeoutSec: 300,
        cwd: ROOT,
        signal: input.signal,
      });
    } finally {
      await sandbox.close();
    }
    if (r.timedOut) throw new InfraError("channel restore check timed out");
    return judge(input.sample, r.exitCode, r.stdout, r.stderr);
  } catch (e) {
    if (e instanceof InfraError) throw e;
    throw new InfraError(`channel restore check could not run: ${errorMessage(e)}`, { cause: e });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function judge(sample: FileTree, exitCode: number | null, stdout: string, stderr: string): CheckResult {
  const out: Diagnostic[] = [];
  let parsed: { changed: boolean; restored: Record<string, string> } | null = null;
  try {
    parsed = exitCode === 0 ? JSON.parse(stdout.trim().split("\n").pop() ?? "") : null;
  } catch {
    parsed = null;
  }
  if (parsed === null) {
    const tail = stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 300);
    return checkResult(
      "restore",
      [diag("restore-failed", null, `present then restore exited ${exitCode}: ${tail}`)],
      "",
    );
  }
  const restored = new Map(Object.entries(parsed.restored));
  for (const [p, b] of [...sample].sort(([a], [c]) => byPath(a, c))) {
    const got = restored.get(p);
    const name = p === "" ? "the sample input file" : p;
    if (got === undefined) out.push(diag("missing-fact", null, `after restore ${name} is not there`));
    else if (got !== sha(b)) out.push(diag("fact-mismatch", null, `${name} came back with other bytes`));
  }
  const extra = [...restored.keys()].filter((p) => !sample.has(p));
  if (extra.length > 0)
    out.push(
      diag(
        "fact-mismatch",
        null,
        `restore left files the input did not have: ${extra.slice(0, 5).join(", ")}`,
      ),
    );
  const what = sample.has("") ? "a sample input file" : `a sample input folder of ${sample.size} file(s)`;
  return checkResult(
    "restore",
    out,
    `${what} presented${parsed.changed ? "" : " (unchanged)"} and restored byte for byte`,
  );
}

/**
 * A sample input for the check: the task's public files when there are some (the examples the
 * agent sees), else a small built folder or file with text, nesting, an empty file and binary bytes.
 */
export function sampleInput(kind: InputKind, tree: FileTree): FileTree {
  if (kind === "stream") {
    // Lines as an interactive program reads them: JSON objects, an empty line, non-ASCII text.
    const lines = [
      '{"type": "init", "gravity": 1.62, "pad_x": -3.5}',
      "",
      '{"step": 1, "note": "héllo"}',
      "7 8 9",
    ];
    return new Map([["", new TextEncoder().encode(`${lines.join("\n")}\n`)]]);
  }
  const text = [...tree].filter(([, b]) => b.length > 0 && b.length < 64_000 && !b.includes(0));
  const first = text.sort(([a], [b]) => byPath(a, b))[0];
  if (kind === "file") {
    return new Map([["", first?.[1] ?? new TextEncoder().encode('id,note\n1,"a, quoted"\n2,héllo\n')]]);
  }
  const small = [...tree].filter(([, b]) => b.length < 64_000).slice(0, 40);
  if (small.length >= 2) return new Map(small);
  const enc = new TextEncoder();
  return new Map([
    ["a.csv", enc.encode('id,note\n1,"a, quoted"\n2,plain\n')],
    ["nested/log.txt", enc.encode("héllo wörld\n".repeat(300))],
    ["nested/deeper/blob.bin", Uint8Array.from({ length: 3000 }, (_, i) => (i * 37) % 256)],
    ["empty.txt", new Uint8Array()],
  ]);
}
