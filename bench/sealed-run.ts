/**
 * Cost of one sealed run (the nested sandbox a grader runs the agent's program in) against a
 * plain exec inside the same verifier sandbox, in both limit modes, and of the host-secrets scan
 * a fresh process pays once. Usage: npx tsx bench/sealed-run.ts
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sealedRunDir } from "../src/grading/sealed-run-path.js";
import { SYSTEM_BINDS } from "../src/sandbox/bwrap-args.js";
import { BwrapProvider } from "../src/sandbox/bwrap-provider.js";
import { scanWithFind } from "../src/sandbox/host-secrets.js";

const RUNS = 30;
const timed = (cmd: string, tag: string): string =>
  `for i in $(seq ${RUNS}); do s=$(date +%s%N); ${cmd} >/dev/null; e=$(date +%s%N); echo ${tag}$(( (e-s)/1000 )); done`;

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
    const script = `${timed("/longhaul/kit/sealed-run -- true", "s")}; ${timed("/bin/true", "b")}`;
    const r = await sandbox.exec(["bash", "-c", script], {
      mounts: [{ hostPath: sealedRunDir(), sandboxPath: "/longhaul/kit", readonly: true }],
      nestedSandbox: true,
      freshDirs: ["/root", "/tmp"],
      timeoutSec: 300,
    });
    const lines = r.stdout.trim().split("\n");
    const ms = (tag: string): number[] =>
      lines.filter((l) => l.startsWith(tag)).map((l) => Number(l.slice(1)) / 1000);
    const sealed = p50(ms("s"));
    const plain = p50(ms("b"));
    console.log(
      `${limits}: sealed-run true p50 ${sealed.toFixed(1)} ms; plain true p50 ${plain.toFixed(1)} ms; added ${(sealed - plain).toFixed(1)} ms per sealed call`,
    );
  } finally {
    await sandbox.close();
  }
}
