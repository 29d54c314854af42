/**
 * Cost of the reference wrapper per graded call: a scaled child's solution runs the parent's
 * program behind a wrapper (kit/res_channel.py `wrap`) that restores the presented input and then
 * runs the original. Timed as a grader sees it, one process per call (the system Python, -B: the
 * graded calls see the program's folder read-only), for each bundled program below: the bare
 * program on the original input, and the wrapped one on the presented input, with this kit and
 * (given as argument, e.g. `git show REV:src/scale/channel/kit/res_channel.py > /tmp/old_kit.py`)
 * another, calls interleaved. Outputs are compared: the wrapped call must give the bare one's.
 * Last, the verifier's side of a stream channel: the kit's filter, started once per call.
 * Usage: npx tsx bench/channel-wrapper.ts [OTHER_KIT] [--runs N] [--steps N]
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Rng } from "../src/core/rng.js";
import { type ChannelStep, channelKitPath, channelStep, ONE_FILE_STEPS } from "../src/scale/channel/steps.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}
const other =
  process.argv[2] !== undefined && !process.argv[2].startsWith("--") ? resolve(process.argv[2]) : null;
const runs = Number(arg("runs", "30"));
const steps = Number(arg("steps", "4"));
const PY = "/usr/bin/python3";

/**
 * Programs with a folder input: perm-audit's reference (a package of its own, which loads json, re
 * and gzip itself) and a small script that reads every file and imports only os and sys, where
 * what the wrapper loads shows most. `files` are copied from the task's solution/ (or written).
 */
const PROGRAMS = [
  {
    task: "perm-audit",
    files: { from: ["hostaudit", "hostaudit.py"] },
    program: "hostaudit.py",
    argv: ["audit", "IN", "OUT"],
    input: "snapshot",
  },
  {
    task: "perm-audit",
    files: {
      write: [
        "import os, sys",
        "root, out = sys.argv[1], sys.argv[2]",
        "sizes = sorted((os.path.relpath(os.path.join(d, n), root), len(open(os.path.join(d, n), 'rb').read())) for d, _, ns in os.walk(root) for n in ns)",
        "open(out, 'w').write(repr(sizes))",
        "",
      ].join("\n"),
    },
    program: "sizes.py",
    argv: ["IN", "OUT"],
    input: "snapshot",
  },
] as const;

/** A seeded chain of one-file steps (they apply to every file of a folder too). */
function chain(n: number, seed: number): ChannelStep[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, (_, i) => channelStep(rng.pick(ONE_FILE_STEPS), seed * 100 + i));
}

function py(args: string[], cwd?: string): string {
  const r = spawnSync(PY, args, { encoding: "utf8", cwd });
  if (r.status !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

const work = mkdtempSync(join(tmpdir(), "longhaul-bench-wrapper-"));
const kits: [string, string][] = [
  ["this", channelKitPath()],
  ...(other === null ? [] : [["other", other] as [string, string]]),
];
console.log(
  `p50 of ${runs} calls, ms; channel of ${steps} steps; ${other === null ? "this kit only" : `other kit: ${other}`}`,
);
console.log("task, program | bare | wrapped, this kit (+ over bare) | wrapped, other kit (+ over bare)");
for (const p of PROGRAMS) {
  const tag = `${p.task}-${p.program}`;
  const sol = resolve("tasks", p.task, "solution");
  const input = resolve("tasks", p.task, "tests", "examples", "example1", p.input);
  const decl = {
    program: "",
    input_index: p.argv.indexOf("IN") + 2,
    input_kind: "folder",
    steps: chain(steps, 7),
  };
  const apps: Record<string, string> = {};
  for (const [name, kit] of [["bare", channelKitPath()], ...kits] as [string, string][]) {
    const app = join(work, `${tag}-${name}`);
    mkdirSync(app, { recursive: true });
    if ("from" in p.files)
      for (const f of p.files.from) cpSync(join(sol, f), join(app, f), { recursive: true });
    else writeFileSync(join(app, p.program), p.files.write);
    apps[name] = app;
    if (name === "bare") continue;
    const declPath = join(work, `${tag}-${name}.json`);
    writeFileSync(declPath, JSON.stringify({ ...decl, program: join(app, p.program) }));
    py(["-I", kit, "wrap", join(app, p.program), declPath]);
  }
  const presented = py([
    "-I",
    "-c",
    "import sys; sys.path.insert(0, sys.argv[1]); import res_channel as c, json; print(c.present(sys.argv[2], json.load(open(sys.argv[3]))['steps'], sys.argv[4]))",
    join(channelKitPath(), ".."),
    input,
    join(work, `${tag}-this.json`),
    join(work, `${tag}-presented`),
  ]);
  const times: Record<string, number[]> = {};
  const outputs: Record<string, string> = {};
  const names = Object.keys(apps);
  for (let r = 0; r < runs; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) {
      const out = join(work, `${tag}-${name}-out.json`);
      rmSync(out, { force: true });
      const argv = p.argv.map((a) =>
        a === "IN" ? (name === "bare" ? input : presented) : a === "OUT" ? out : a,
      );
      const t = performance.now();
      const res = spawnSync(PY, ["-B", p.program, ...argv], { cwd: apps[name], encoding: "utf8" });
      const ms = performance.now() - t;
      if (res.status !== 0) throw new Error(`${p.task} ${name}: ${res.stderr}`);
      const list = times[name] ?? [];
      list.push(ms);
      times[name] = list;
      outputs[name] = readFileSync(out, "utf8");
    }
  }
  for (const name of names) {
    if (outputs[name] !== outputs.bare)
      throw new Error(`${p.task}: the ${name} wrapper's output differs from the bare program's`);
  }
  const p50 = (xs: number[] | undefined): number => {
    const s = [...(xs ?? [])].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)] ?? Number.NaN;
  };
  const bare = p50(times.bare);
  const cell = (name: string): string =>
    times[name] === undefined
      ? "-"
      : `${p50(times[name]).toFixed(2)} (+${(p50(times[name]) - bare).toFixed(2)})`;
  console.log(`${p.task} ${p.program} | ${bare.toFixed(2)} | ${cell("this")} | ${cell("other")}`);
}
// The verifier's side of a stream channel: lh.py starts the kit's filter in front of an interactive
// program on every call (here /bin/true, which reads nothing: the filter's own start and exit).
{
  const declPath = join(work, "stream.json");
  writeFileSync(
    declPath,
    JSON.stringify({
      program: "/x",
      input_index: 1,
      input_kind: "stream",
      steps: [channelStep("line-base64", 1)],
    }),
  );
  const times: Record<string, number[]> = {};
  for (let r = 0; r < runs; r++) {
    for (const [name, kit] of r % 2 === 0 ? kits : [...kits].reverse()) {
      const t = performance.now();
      const res = spawnSync(PY, [kit, "stream", declPath, "--", "/bin/true"], { input: "" });
      const ms = performance.now() - t;
      if (res.status !== 0) throw new Error(`the ${name} kit's stream filter failed: ${res.stderr}`);
      const list = times[name] ?? [];
      list.push(ms);
      times[name] = list;
    }
  }
  const p50 = (xs: number[] | undefined): string => {
    const sorted = [...(xs ?? [])].sort((a, b) => a - b);
    return (sorted[Math.floor(sorted.length / 2)] ?? Number.NaN).toFixed(2);
  };
  console.log(
    `stream filter per call (program /bin/true): this kit ${p50(times.this)} ms, other kit ${p50(times.other)} ms`,
  );
  // The reference side of a stream channel: a program that reads 20 lines, bare on plain lines
  // and wrapped (each kit's stream wrapper) on encoded ones.
  const step = channelStep("line-base64", 1);
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i} of the episode`);
  const encoded = lines.map((l) => Buffer.from(l).toString("base64"));
  const source = "import sys\nprint(sum(1 for _ in sys.stdin), flush=True)\n";
  const apps: Record<string, string> = {};
  for (const [name, kit] of [["bare", channelKitPath()], ...kits] as [string, string][]) {
    const app = join(work, `stream-${name}`);
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, "bot.py"), source);
    apps[name] = app;
    if (name === "bare") continue;
    const decl = join(work, `stream-${name}.json`);
    writeFileSync(
      decl,
      JSON.stringify({ program: join(app, "bot.py"), input_index: 1, input_kind: "stream", steps: [step] }),
    );
    const w = spawnSync(PY, ["-I", kit, "wrap", join(app, "bot.py"), decl], { encoding: "utf8" });
    if (w.status !== 0) throw new Error(`wrap (${name}): ${w.stderr}`);
  }
  const calls: Record<string, number[]> = {};
  const names = Object.keys(apps);
  for (let r = 0; r < runs; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) {
      const input = `${(name === "bare" ? lines : encoded).join("\n")}\n`;
      const t = performance.now();
      const res = spawnSync(PY, ["-B", "bot.py"], { cwd: apps[name], input, encoding: "utf8" });
      const ms = performance.now() - t;
      if (res.status !== 0 || res.stdout.trim() !== "20")
        throw new Error(`stream ${name}: ${res.stdout} ${res.stderr}`);
      const list = calls[name] ?? [];
      list.push(ms);
      calls[name] = list;
    }
  }
  console.log(
    `stream program reading 20 lines: bare ${p50(calls.bare)} ms, wrapped with this kit ${p50(calls.this)} ms, with the other kit ${p50(calls.other)} ms`,
  );
}
rmSync(work, { recursive: true, force: true });
