/**
 * Cost of one sealed run (the nested sandbox a grader runs the agent's program in) against a
 * plain exec inside the same verifier sandbox, in both limit modes, and of the host-secrets scan
 * a fresh process pays once. With another sealed-run script as argument (say the one of an older
 * checkout: `git show REV:src/grading/kit/sealed-run > /tmp/old-sealed-run`), both are timed side
 * by side in the same sandbox, calls interleaved, with and without an output folder.
 * Usage: npx tsx bench/sealed-run.ts [OTHER_SEALED_RUN]
 */
import { chmodSync, copyFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { sealedRunDir } from "../src/grading/sealed-run-path.js";
import { SYSTEM_BINDS } from "../src/sandbox/bwrap-args.js";
import { BwrapProvider } from "../src/sandbox/bwrap-provider.js";
import { scanWithFind } from "../src/sandbox/host-secrets.js";

const RUNS = 40;
/** One timed call, printed as TAG then microseconds (EPOCHREALTIME: no process to read a clock). */
const timedOnce = (cmd: string, tag: string): string =>
  `s=\${EPOCHREALTIME/./}; ${cmd} >/dev/null; e=\${EPOCHREALTIME/./}; echo ${tag}$(( e - s ))`;

const other = process.argv[2] === undefined ? undefined : resolve(process.argv[2]);
const otherDir = join(tmpdir(), `longhaul-${process.pid}-bench-other-kit`);
if (other !== undefined) {
  mkdirSync(otherDir, { recursive: true });
  copyFileSync(other, join(otherDir, "sealed-run"));
  chmodSync(join(otherDir, "sealed-run"), 0o755);
}
/** The calls timed, by tag: the current runner (s, o), the other one (S, O), a plain exec (b). */
function script(): string {
  const calls: string[] = ["mkdir -p /tmp/c"];
  const out = (sr: string) =>
    `${sr} --out /tmp/c/d -- sh -c 'mkdir /tmp/c/d && echo x > /tmp/c/d/f'; rm -rf /tmp/c/d`;
  for (let i = 0; i < RUNS; i++) {
    calls.push(
      timedOnce("/longhaul/kit/sealed-run -- true", "s"),
      timedOnce("/longhaul/kit/sealed-run --timeout 30 -- true", "t"),
      timedOnce(out("/longhaul/kit/sealed-run"), "o"),
    );
    if (other !== undefined) {
      calls.push(
        timedOnce("/longhaul/other/sealed-run -- true", "S"),
        timedOnce("/longhaul/other/sealed-run --timeout 30 -- true", "T"),
        timedOnce(out("/longhaul/other/sealed-run"), "O"),
      );
    }
    calls.push(timedOnce("/bin/true", "b"));
  }
  return calls.join("\n");
}

function p50(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const scan = await scanWithFind(SYSTEM_BINDS);
console.log(
  `host-secrets scan (find): ${scan === null ? "failed" : `${scan.files.length + scan.dirs.length} paths in ${Math.round(scan.scanMs)} ms`}`,
);

for (const limits of ["auto", "rlimit"] as const) {
  const provider = new BwrapProvider({ limits });
  const sandbox = await provider.create({
    environmentDir: null,
    workdir: "/app",
    memoryMb: 512,
    cpus: 1,
    pidsMax: 256,
    allowInternet: false,
    stateDir: join(tmpdir(), `longhaul-${process.pid}-bench-${limits}`),
  });
  try {
    const mounts = [{ hostPath: sealedRunDir(), sandboxPath: "/longhaul/kit", readonly: true }];
    if (other !== undefined)
      mounts.push({ hostPath: otherDir, sandboxPath: "/longhaul/other", readonly: true });
    const r = await sandbox.exec(["bash", "-c", script()], {
      mounts,
      nestedSandbox: true,
      freshDirs: ["/root", "/tmp"],
      timeoutSec: 600,
    });
    const lines = r.stdout.trim().split("\n");
    const ms = (tag: string): number =>
      p50(lines.filter((l) => l.startsWith(tag)).map((l) => Number(l.slice(1)) / 1000));
    const plain = ms("b");
    const row = (name: string, t: string, o: string, l: string): string =>
      `${name}: sealed true p50 ${ms(t).toFixed(1)} ms (+${(ms(t) - plain).toFixed(1)} over a plain exec), with --timeout ${ms(l).toFixed(1)} ms, with an output folder ${ms(o).toFixed(1)} ms`;
    console.log(`${limits}: plain true p50 ${plain.toFixed(1)} ms`);
    console.log(`  ${row("this checkout", "s", "o", "t")}`);
    if (other !== undefined) {
      console.log(`  ${row(`other (${other})`, "S", "O", "T")}`);
      console.log(
        `  ratio this/other: ${(ms("s") / ms("S")).toFixed(2)} (true), ${(ms("t") / ms("T")).toFixed(2)} (--timeout), ${(ms("o") / ms("O")).toFixed(2)} (output folder)`,
      );
    }
  } finally {
    await sandbox.close();
  }
}
