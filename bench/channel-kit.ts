/**
 * Cost of one call through a scaled child's input channel: the grader's `present` and the
 * reference wrapper's `restore` (src/scale/channel/kit/res_channel.py), on the bundled tasks'
 * public example folders, through seeded channels of 4 and 20 steps (depth 2 and 10). With
 * another kit as argument (an older checkout's:
 * `git show REV:src/scale/channel/kit/res_channel.py > /tmp/old_kit.py`), both are timed side by
 * side in one Python process, calls interleaved.
 * Usage: npx tsx bench/channel-kit.ts [OTHER_KIT] [--runs N] [--tasks a,b,c]
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { Rng } from "../src/core/rng.js";
import { CHANNEL_STEPS, type ChannelStep, channelKitPath, channelStep } from "../src/scale/channel/steps.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}
const other =
  process.argv[2] !== undefined && !process.argv[2].startsWith("--") ? resolve(process.argv[2]) : null;
const runs = Number(arg("runs", "15"));
const tasks = arg("tasks", "perm-audit,meter-billing,loan-schedule,flood-extent,station-qc").split(",");

/** A seeded chain of folder steps (no line steps: those are for streams). */
function chain(n: number, seed: number): ChannelStep[] {
  const rng = new Rng(seed);
  const names = CHANNEL_STEPS.filter((s) => !s.startsWith("line-"));
  return Array.from({ length: n }, (_, i) => channelStep(rng.pick(names), seed * 100 + i));
}

const SCRIPT = `
import importlib.util, json, os, shutil, sys, tempfile, time
def kit(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
cfg = json.loads(sys.argv[1])
kits = [("this", kit(cfg["kit"], "kit_this"))] + ([("other", kit(cfg["other"], "kit_other"))] if cfg["other"] else [])
work = tempfile.mkdtemp(prefix="longhaul-bench-kit-")
out = []
for case in cfg["cases"]:
    src, steps = case["src"], case["steps"]
    files = sum(len(f) for _, _, f in os.walk(src))
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(src) for f in fs)
    row = {"task": case["task"], "steps": len(steps), "files": files, "bytes": size}
    times = {k: {"present": [], "restore": []} for k, _ in kits}
    shown = kits[0][1].present(src, steps, os.path.join(work, "seed"))
    for r in range(cfg["runs"]):
        for k, m in (kits if r % 2 == 0 else kits[::-1]):
            a = time.perf_counter(); m.present(src, steps, os.path.join(work, "p%d%s" % (r, k)))
            b = time.perf_counter(); m.restore(shown, steps, os.path.join(work, "r%d%s" % (r, k)))
            c = time.perf_counter()
            times[k]["present"].append((b - a) * 1000); times[k]["restore"].append((c - b) * 1000)
    for k in times:
        for op, xs in times[k].items():
            xs.sort(); row["%s_%s_ms" % (k, op)] = round(xs[len(xs) // 2], 2)
    out.append(row)
shutil.rmtree(work)
print(json.dumps(out))
`;

const cases = tasks.flatMap((t) => {
  const src = resolve("tasks", t, "tests", "examples", "example1");
  if (!existsSync(src)) return [];
  return [4, 20].map((n) => ({ task: t, src, steps: chain(n, n) }));
});
const r = spawnSync(
  "/usr/bin/python3",
  ["-c", SCRIPT, JSON.stringify({ kit: channelKitPath(), other, runs, cases })],
  { encoding: "utf8", maxBuffer: 1 << 24 },
);
if (r.status !== 0) {
  process.stderr.write(r.stderr);
  process.exit(1);
}
const rows = z.array(z.record(z.string(), z.union([z.number(), z.string()]))).parse(JSON.parse(r.stdout));
const ms = (row: Record<string, number | string>, k: string): string => String(row[k] ?? "-");
const ratio = (row: Record<string, number | string>, op: string): string => {
  const a = Number(row[`other_${op}_ms`]);
  const b = Number(row[`this_${op}_ms`]);
  return Number.isFinite(a) && b > 0 ? `${(a / b).toFixed(1)}×` : "-";
};
console.log(
  `p50 of ${runs} calls each, milliseconds (${other === null ? "this kit only" : `other kit: ${other}`})`,
);
console.log("task | steps | files | bytes | present this / other (×) | restore this / other (×)");
for (const row of rows) {
  console.log(
    `${row.task} | ${row.steps} | ${row.files} | ${row.bytes} | ${ms(row, "this_present_ms")} / ${ms(row, "other_present_ms")} (${ratio(row, "present")}) | ${ms(row, "this_restore_ms")} / ${ms(row, "other_restore_ms")} (${ratio(row, "restore")})`,
  );
}
