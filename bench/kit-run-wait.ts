/**
 * What waiting for the agent's program costs a grader, per call: the kit's run() (a blocking wait
 * with a timer beside it, kit version 10) against Popen.wait(timeout=) (kit version 9 and
 * earlier, which polls with sleeps of up to 50 ms) and a bare blocking wait, for programs of a few
 * lengths, in one Python process on the host (unsealed, so only the wait differs).
 * Usage: npx tsx bench/kit-run-wait.ts [--runs 20]
 */
import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
import { kitPath } from "../src/task/verifier-kit.js";

const i = process.argv.indexOf("--runs");
const runs = Number(i >= 0 ? process.argv[i + 1] : 20);
if (!Number.isInteger(runs) || runs < 1) {
  console.error("bench: --runs must be a whole number of at least 1");
  process.exit(2);
}

const script = `
import json, subprocess, sys, threading, time
sys.path.insert(0, ${JSON.stringify(dirname(kitPath()))})
import lh

RUNS = ${runs}

def bare(argv):
    p = subprocess.Popen(argv)
    p.wait()

def polled(argv):
    # What kit version 9's run() did: Popen.wait with a timeout (the backstop).
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = [threading.Thread(target=s.read) for s in (p.stdout, p.stderr)]
    for t in out:
        t.start()
    p.stdin.close()
    p.wait(timeout=15)
    for t in out:
        t.join()

def kit(argv):
    lh.run(argv, timeout=10, cwd="/tmp")

def p50(fn, argv):
    xs = []
    for _ in range(RUNS):
        t = time.perf_counter()
        fn(argv)
        xs.append(time.perf_counter() - t)
    return sorted(xs)[len(xs) // 2] * 1000

rows = []
for seconds in (0.02, 0.1, 0.3, 1.0):
    argv = ["sleep", str(seconds)]
    rows.append({"program_ms": seconds * 1000, "bare": p50(bare, argv), "polled": p50(polled, argv), "kit": p50(kit, argv)})
print(json.dumps(rows))
`;

const out = execFileSync("/usr/bin/python3", ["-I", "-c", script], {
  env: { PATH: "/usr/bin:/bin", LONGHAUL_SEALED_RUN: "/nonexistent/sealed-run" },
  encoding: "utf8",
});
const rows = JSON.parse(out.trim().split("\n").pop() ?? "[]") as {
  program_ms: number;
  bare: number;
  polled: number;
  kit: number;
}[];
console.log(`p50 of ${runs} calls each, ms (a program that sleeps, waited for three ways):`);
console.log("program   bare wait   Popen.wait(timeout=)   kit run()   polling adds   kit adds");
for (const r of rows) {
  const cells = [
    `${r.program_ms.toFixed(0)} ms`.padEnd(9),
    r.bare.toFixed(1).padStart(9),
    r.polled.toFixed(1).padStart(22),
    r.kit.toFixed(1).padStart(11),
    (r.polled - r.bare).toFixed(1).padStart(14),
    (r.kit - r.bare).toFixed(1).padStart(10),
  ];
  console.log(cells.join(" "));
}
