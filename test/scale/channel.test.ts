import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { detectProgram } from "../../src/scale/channel/detect-program.js";
import { channelSolutionFiles, channelTestFiles } from "../../src/scale/channel/materialize.js";
import {
  CHANNEL_STEPS,
  type ChannelDecl,
  channelAccess,
  channelKitPath,
  channelStep,
  ONE_FILE_STEPS,
} from "../../src/scale/channel/steps.js";
import { JobStore } from "../../src/store/index.js";
import { loadTasks } from "../../src/task/index.js";
import { jobConfig, tempDir } from "../runner/helpers.js";

const root = tempDir("res-channel");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Runs the kit on every case in one Python process (a start-up per case cost most of this file's
 * time): present twice, then restore; prints digests of the original, presented (twice) and
 * restored trees, one JSON line per case.
 */
const ROUND_TRIPS = `
import hashlib, json, os, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import res_channel as c
def digest(p):
    if os.path.isfile(p):
        return hashlib.sha256(open(p, "rb").read()).hexdigest()
    return [[r, hashlib.sha256(open(os.path.join(p, r), "rb").read()).hexdigest()] for r in c._files(p)]
for i, case in enumerate(json.loads(sys.stdin.read())):
    src, steps, scratch = case["src"], case["steps"], os.path.join(sys.argv[2], str(i))
    a = c.present(src, steps, scratch)
    b = c.present(src, steps, scratch)
    r = c.restore(a, steps, scratch)
    print(json.dumps({"orig": digest(src), "a": digest(a), "b": digest(b), "restored": digest(r), "names": c._files(a) if os.path.isdir(a) else [os.path.basename(a)]}))
`;

interface RoundTrip {
  orig: unknown;
  a: unknown;
  b: unknown;
  restored: unknown;
  names: string[];
}

function roundTrips(cases: { src: string; steps: unknown[] }[]): RoundTrip[] {
  const scratch = join(root, `scratch-${Math.random().toString(36).slice(2)}`);
  const r = spawnSync("python3", ["-I", "-B", "-c", ROUND_TRIPS, channelKitPath(), scratch], {
    encoding: "utf8",
    input: JSON.stringify(cases),
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  const out = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as RoundTrip);
  if (out.length !== cases.length) throw new Error(`${out.length} results for ${cases.length} cases`);
  return out;
}

function sampleFolder(): string {
  const d = join(root, "input");
  mkdirSync(join(d, "nested", "deeper"), { recursive: true });
  writeFileSync(join(d, "orders.csv"), 'id,note\n1,"a, quoted"\n2,plain\n');
  writeFileSync(join(d, "nested", "log.txt"), "héllo wörld\n".repeat(300));
  writeFileSync(
    join(d, "nested", "deeper", "blob.bin"),
    Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256)),
  );
  writeFileSync(join(d, "empty.txt"), "");
  return d;
}

describe("RES input channel kit (res_channel.py)", () => {
  const folder = sampleFolder();
  const file = join(folder, "orders.csv");
  // Every case of the tests below, run at once; each test reads its own results.
  const singles = CHANNEL_STEPS.flatMap((name) =>
    [1, 99].flatMap((seed) => [
      { key: `${name}/${seed}/folder`, src: folder, steps: [channelStep(name, seed)] },
      ...(ONE_FILE_STEPS.includes(name)
        ? [{ key: `${name}/${seed}/file`, src: file, steps: [channelStep(name, seed)] }]
        : []),
    ]),
  );
  const rng = new Rng(2026);
  const chainKey = (chain: { name: string }[], i: number): string =>
    `chain ${i}: ${chain.map((s) => s.name).join(" then ")}`;
  const chains = Array.from({ length: 12 }, (_, i) =>
    Array.from({ length: rng.int(2, 5) }, (_, k) => channelStep(rng.pick(CHANNEL_STEPS), i * 10 + k)),
  );
  // The same step twice: an archive inside an archive, a manifest of a manifest.
  const twice = (["archive", "manifest", "split"] as const).map((name) => ({
    key: `${name} twice`,
    src: folder,
    steps: [channelStep(name, 1), channelStep(name, 2)],
  }));
  const cases = [
    ...singles,
    ...chains.map((chain, i) => ({ key: chainKey(chain, i), src: folder, steps: chain })),
    ...twice,
  ];
  let results: Map<string, RoundTrip> | undefined;
  const result = (key: string): RoundTrip => {
    results ??= new Map(roundTrips(cases).map((r, i) => [cases[i]?.key ?? "", r]));
    const r = results.get(key);
    if (r === undefined) throw new Error(`no round trip ${key}`);
    return r;
  };

  for (const name of CHANNEL_STEPS) {
    it(`${name}: present is deterministic, changes the input, and restore brings it back`, () => {
      for (const seed of [1, 99]) {
        const out = result(`${name}/${seed}/folder`);
        expect(out.a).toEqual(out.b);
        expect(out.a).not.toEqual(out.orig);
        expect(out.restored).toEqual(out.orig);
        if (ONE_FILE_STEPS.includes(name)) {
          const one = result(`${name}/${seed}/file`);
          expect(one.a).not.toEqual(one.orig);
          expect(one.restored).toEqual(one.orig);
          expect(one.names).toHaveLength(1);
        }
      }
    });
  }

  it("composes: seeded chains of 2 to 5 steps (repeats included) round-trip", () => {
    for (const c of [...chains.map(chainKey), ...twice.map((t) => t.key)]) {
      const out = result(c);
      expect(out.restored, c).toEqual(out.orig);
    }
  });

  it("words the spec update from the steps, naming the program and no hidden value", () => {
    const decl: ChannelDecl = {
      program: "/app/loan.py",
      input_index: 2,
      input_kind: "folder",
      steps: [channelStep("manifest", 5), channelStep("layered-wrap", 6)],
    };
    const text = channelAccess(decl);
    expect(text).toContain("/app/loan.py");
    expect(text).toContain("MANIFEST.json");
    expect(text).toMatch(/1\. .*\n2\. /);
    expect(text).not.toContain('"seed"');
  });

  it("a first-path channel presents the first existing absolute path after the program, and its wrapper restores that argument", () => {
    const dir = join(root, "first-path");
    const app = join(dir, "app");
    mkdirSync(join(dir, "in"), { recursive: true });
    mkdirSync(app, { recursive: true });
    writeFileSync(join(dir, "in", "a.csv"), "id,v\n1,x\n");
    writeFileSync(join(dir, "one.txt"), "hello\n");
    // The program reports what it was given: the subcommand, then each argument's contents.
    const program = join(app, "tool.py");
    writeFileSync(
      program,
      [
        "import json, os, sys",
        "def show(p):",
        "    if os.path.isdir(p):",
        "        return {n: open(os.path.join(p, n)).read() for n in sorted(os.listdir(p))}",
        "    return open(p).read() if os.path.exists(p) else p",
        "print(json.dumps([show(a) for a in sys.argv[1:]]))",
        "",
      ].join("\n"),
    );
    const decl: ChannelDecl = {
      program,
      input_index: 2,
      input_kind: "path",
      input_arg: "first-path",
      steps: [channelStep("gzip", 3), channelStep("base64", 4)],
    };
    const declPath = join(dir, "channel.json");
    writeFileSync(declPath, JSON.stringify(decl));
    const hook = `
import json, subprocess, sys
sys.path.insert(0, sys.argv[1])
import res_channel as c
decl = c.load(sys.argv[2])
for argv in json.loads(sys.stdin.read()):
    out = c.present_argv(argv, decl)
    ran = subprocess.run(out, capture_output=True, text=True)
    print(json.dumps({"changed": [i for i, (a, b) in enumerate(zip(argv, out)) if a != b], "out": ran.stdout.strip(), "err": ran.stderr[-300:]}))
`;
    const calls = [
      ["python3", program, "run", join(dir, "in"), join(dir, "out.csv")],
      ["python3", program, "relative/path", join(dir, "one.txt"), join(dir, "in")],
      ["python3", join(app, "other.py"), join(dir, "in")],
    ];
    const present = (): { changed: number[]; out: string; err: string }[] => {
      const r = spawnSync("python3", ["-I", "-B", "-c", hook, join(channelKitPath(), ".."), declPath], {
        encoding: "utf8",
        input: JSON.stringify(calls),
      });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
    };
    const bare = present();
    // Only the first existing absolute path after the program is presented; other calls are untouched.
    expect(bare.map((b) => b.changed)).toEqual([[3], [3], []]);
    expect(bare[0]?.out).not.toContain("id,v");
    // A child's partial.sh defers the wrap while the root's partial runs (it may run solve.sh and
    // then patch the program itself): the program is left as it is.
    const before = readFileSync(program, "utf8");
    const deferred = spawnSync("python3", ["-I", "-B", channelKitPath(), "wrap", program, declPath], {
      encoding: "utf8",
      env: { ...process.env, LONGHAUL_RES_DEFER_WRAP: "1" },
    });
    expect(deferred.status, deferred.stderr).toBe(0);
    expect(readFileSync(program, "utf8")).toBe(before);
    expect(readdirSync(app)).toEqual(["tool.py"]);
    // The reference solution's wrapper (the kit's `wrap`) restores that same argument.
    const w = spawnSync("python3", ["-I", "-B", channelKitPath(), "wrap", program, declPath], {
      encoding: "utf8",
    });
    expect(w.status, w.stderr).toBe(0);
    // Wrapped twice (a partial solution that runs the child's solve.sh and is then wrapped): the
    // original stays aside, and the program still restores its input once.
    const again = spawnSync("python3", ["-I", "-B", channelKitPath(), "wrap", program, declPath], {
      encoding: "utf8",
    });
    expect(again.status, again.stderr).toBe(0);
    const wrapped = present();
    expect(JSON.parse(wrapped[0]?.out ?? "null")).toEqual([
      "run",
      { "a.csv": "id,v\n1,x\n" },
      join(dir, "out.csv"),
    ]);
    expect(JSON.parse(wrapped[1]?.out ?? "null")).toEqual([
      "relative/path",
      "hello\n",
      { "a.csv": "id,v\n1,x\n" },
    ]);
  });

  it("a file input whose folder the call shows read-only keeps its neighbours, presented and restored", () => {
    const dir = join(root, "beside");
    const caseDir = join(dir, "case");
    const app = join(dir, "app");
    mkdirSync(join(caseDir, "corpus"), { recursive: true });
    mkdirSync(app, { recursive: true });
    writeFileSync(join(caseDir, "config.json"), JSON.stringify({ corpus: "corpus/a.txt" }));
    writeFileSync(join(caseDir, "corpus", "a.txt"), "tokens\n");
    // Like a tokenizer's `stats CONFIG OUT`: the config names a file relative to itself.
    const program = join(app, "stats.py");
    writeFileSync(
      program,
      [
        "import json, os, sys",
        "cfg = sys.argv[2]",
        "rel = json.load(open(cfg))['corpus']",
        "print(open(os.path.join(os.path.dirname(cfg), rel)).read().strip())",
        "",
      ].join("\n"),
    );
    const declPath = join(dir, "channel.json");
    const decl: ChannelDecl = {
      program,
      input_index: 2,
      input_kind: "path",
      input_arg: "first-path",
      steps: [channelStep("layered-wrap", 5)],
    };
    writeFileSync(declPath, JSON.stringify(decl));
    const hook = `
import json, subprocess, sys
sys.path.insert(0, sys.argv[1])
import res_channel as c
decl = c.load(sys.argv[2])
argv = ["python3", decl["program"], "stats", sys.argv[3], "/nonexistent/out"]
for ro in ([], [sys.argv[4]]):
    out, ro2 = c.present_call(argv, decl, ro)
    ran = subprocess.run(out, capture_output=True, text=True)
    print(json.dumps({"ro": len(ro2) - len(ro), "out": ran.stdout.strip(), "rc": ran.returncode}))
`;
    const call = (): { ro: number; out: string; rc: number }[] => {
      const r = spawnSync(
        "python3",
        [
          "-I",
          "-B",
          "-c",
          hook,
          join(channelKitPath(), ".."),
          declPath,
          join(caseDir, "config.json"),
          caseDir,
        ],
        { encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(0);
      return r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
    };
    const w = spawnSync("python3", ["-I", "-B", channelKitPath(), "wrap", program, declPath], {
      encoding: "utf8",
    });
    expect(w.status, w.stderr).toBe(0);
    const [alone, shown] = call();
    // Without the folder shown, the presented config has no neighbours: the program cannot read its corpus.
    expect(alone).toMatchObject({ ro: 0, out: "" });
    expect(alone?.rc).not.toBe(0);
    // With it, the neighbours are linked beside the presented file (its folder shown too) and the
    // wrapper links them beside the restored one.
    expect(shown).toEqual({ ro: 1, out: "tokens", rc: 0 });
  });

  it("every bundled task is a program task", () => {
    const tasks = readdirSync(resolve("tasks")).sort();
    expect(tasks.length).toBeGreaterThanOrEqual(46);
    const none = tasks.filter((t) => detectProgram(resolve("tasks", t, "tests"), "/app") === null);
    expect(none).toEqual([]);
  });

  it("finds the program and its input in the bundled program tasks", () => {
    const found = detectProgram(resolve("tasks/loan-schedule/tests"), "/app");
    expect(found).toEqual({ program: "/app/loan.py", inputIndex: 2, inputKind: "folder" });
    // A program with subcommands (and any other call): the first existing path after the program.
    expect(detectProgram(resolve("tasks/orbit-propagate/tests"), "/app")).toEqual({
      program: "/app/propagate.py",
      inputIndex: 2,
      inputKind: "path",
      inputArg: "first-path",
    });
    expect(detectProgram(resolve("tasks/lander-pilot/tests"), "/app")?.inputKind).toBe("stream");
    // A grader whose tests name no program call the kit can see: none.
    expect(detectProgram(resolve("test/fixtures/res/ledger-report/tests"), "/app")).toBeNull();
  });
});

describe("a program-task child through the channel, graded for real", () => {
  it("the wrapped reference scores 1 in the child, the parent's bare solution does not", async () => {
    const parent = resolve("tasks/loan-schedule");
    const decl: ChannelDecl = {
      program: "/app/loan.py",
      input_index: 2,
      input_kind: "folder",
      steps: [channelStep("manifest", 11), channelStep("gzip", 12)],
    };
    const child = (name: string, wrapped: boolean): string => {
      const dir = join(root, name);
      cpSync(parent, dir, { recursive: true });
      for (const [p, bytes] of channelTestFiles(decl)) {
        mkdirSync(join(dir, "tests", "res"), { recursive: true });
        writeFileSync(join(dir, "tests", p), bytes);
      }
      if (wrapped) {
        const parentSolve = new Uint8Array(readFileSync(join(parent, "solution", "solve.sh")));
        for (const [p, bytes] of channelSolutionFiles(decl, parentSolve)) {
          mkdirSync(join(dir, "solution", "res"), { recursive: true });
          writeFileSync(join(dir, "solution", p), bytes);
        }
      }
      return dir;
    };
    const tasks = await loadTasks([child("loan-child", true), child("loan-child-bare", false)]);
    const store = await JobStore.open(tempDir("res-channel-job"));
    try {
      const config = jobConfig(tasks, { job_id: "res-channel", agents: ["oracle"] });
      const out = await runJob({
        store,
        config,
        tasks,
        provider: getSandboxProvider("bwrap"),
        resume: false,
      });
      const byTask = Object.fromEntries(out.trials.map((t) => [t.task.name, t]));
      expect(byTask["loan-child"]?.outcome).toBe("completed");
      expect(byTask["loan-child"]?.reward).toBe(1);
      expect(byTask["loan-child-bare"]?.outcome).toBe("completed");
      expect(byTask["loan-child-bare"]?.reward ?? 1).toBeLessThan(0.5);
    } finally {
      await store.close();
    }
  }, 600_000);
});
