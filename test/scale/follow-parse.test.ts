import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import {
  asideName,
  installCommand,
  WRAPPABLE_STEPS,
  wrapperSource,
} from "../../src/scale/agent/channel-wrapper.js";
import { ENV_WORDINGS } from "../../src/scale/agent/env-wording.js";
import { FollowError } from "../../src/scale/agent/follow-error.js";
import { planFollow } from "../../src/scale/agent/follow-plan.js";
import { renderChannelUpdate } from "../../src/scale/channel/build-channel-child.js";
import {
  CHANNEL_STEPS,
  type ChannelDecl,
  channelKitPath,
  channelStep,
  ONE_FILE_STEPS,
  STREAM_STEPS,
} from "../../src/scale/channel/steps.js";
import { publishedSteps } from "../../src/scale/child/build-child.js";
import {
  appendSpecUpdate,
  renderSpecUpdate,
  restoreChain,
  stepLabel,
} from "../../src/scale/child/spec-update.js";
import { applyPlan } from "../../src/scale/plan/apply.js";
import { listTransforms } from "../../src/scale/transforms/registry.js";
import type { FileTree, Transform } from "../../src/scale/types.js";
import { tempDir } from "../runner/helpers.js";
import { samplesFor } from "./relop-kit.js";
import { toyGzip } from "./support/toy-transforms.js";

const GOAL = "# Report\n\nWrite `/app/out/report.json` from the files under `/app/data`.\n";

/** A bound application of `t` on one of its sample trees (its default parameters), or null. */
function bind(
  t: Transform<unknown>,
  env: FileTree,
  seed: number,
): { targets: string[]; params: unknown } | null {
  const ok = [...env.entries()].filter(([p, b]) => t.accepts(p, b)).map(([p]) => p);
  const n = t.arity === "one" ? 1 : 2;
  return ok.length < n ? null : { targets: ok.slice(0, n), params: t.defaultParams(seed) };
}

interface Level {
  transforms: string[];
  targets: string[][];
}

/** A child's instruction, each level rendered exactly as build-child renders it; also what each level applied. */
function childInstruction(
  env0: FileTree,
  levels: Transform<unknown>[][],
  seed: number,
): { text: string; applied: Level[] } {
  let text = GOAL;
  let env = env0;
  const applied: Level[] = [];
  levels.forEach((ts, k) => {
    const depth = k + 1;
    const steps = ts.map((t, i) => {
      const b = bind(t, env, seed + i);
      if (b === null) throw new Error(`${t.name} takes nothing in its sample`);
      return { transform: t.name, targets: b.targets, params: b.params, seed: seed + i };
    });
    // Steps of one level apply in order; bind each to the tree the previous step left.
    let tree = env;
    const bound = [];
    for (const s of steps) {
      const b = bind(
        listTransforms().find((t) => t.name === s.transform) as Transform<unknown>,
        tree,
        s.seed,
      );
      if (b === null) throw new Error(`${s.transform} takes nothing after the previous step`);
      const step = { ...s, ...b };
      tree = applyPlan(tree, { proposer: "seeded", library: "full", seed, steps: [step] }).env;
      bound.push(step);
    }
    const plan = applyPlan(env, { proposer: "seeded", library: "full", seed, steps: bound });
    const access = plan.steps.map((s, i) => ({ label: stepLabel(depth, i), access: s.access }));
    text = appendSpecUpdate(text, renderSpecUpdate(depth, "/app", access, publishedSteps(plan, depth)));
    applied.push({
      transforms: plan.steps.map((s) => s.transform),
      targets: plan.steps.map((s) => s.targets),
    });
    env = plan.env;
  });
  return { text, applied };
}

describe("follow: environment updates", () => {
  it("has a wording for every registered transform", () => {
    const known = new Set(ENV_WORDINGS.map((w) => w.transform));
    expect(
      listTransforms()
        .map((t) => t.name)
        .filter((n) => !known.has(n)),
    ).toEqual([]);
  });

  for (const t of listTransforms()) {
    it(`${t.name}: understands the access text of real updates and runs the published commands`, () => {
      let seen = 0;
      for (const env of samplesFor(t)()) {
        if (bind(t, env, 3) === null) continue;
        for (const seed of [3, 17]) {
          const { text, applied } = childInstruction(env, [[t]], seed);
          const plan = planFollow(text);
          if (plan.kind !== "env") throw new Error(`planned ${plan.kind}`);
          const steps = plan.sections.flatMap((s) => s.steps);
          expect(steps.map((s) => s.transform)).toEqual([t.name]);
          expect([...(steps[0]?.targets ?? [])].sort()).toEqual([...(applied[0]?.targets[0] ?? [])].sort());
          expect(plan.sections[0]?.workdir).toBe("/app");
          // The commands run are exactly the published chain, in its order.
          expect(steps.flatMap((s) => s.commands)).toEqual(restoreChain(text));
          seen++;
        }
        if (seen >= 4) break;
      }
      expect(seen).toBeGreaterThan(0);
    });
  }

  it("undoes a multi-level lineage newest update first, each level's last change first", () => {
    const all = listTransforms();
    const pick = (n: string): Transform<unknown> => all.find((t) => t.name === n) as Transform<unknown>;
    const env = samplesFor(pick("gzip"))()[0] as FileTree;
    const { text, applied } = childInstruction(
      env,
      [[pick("gzip"), pick("base64")], [pick("split")], [pick("move-rename"), pick("manifest")]],
      5,
    );
    const plan = planFollow(text);
    if (plan.kind !== "env") throw new Error(`planned ${plan.kind}`);
    expect(plan.sections.map((s) => s.depth)).toEqual([3, 2, 1]);
    const order = plan.sections.flatMap((s) => s.steps.map((x) => `${x.label}:${x.transform}`));
    expect(order).toEqual(["d3.2:manifest", "d3.1:move-rename", "d2.1:split", "d1.2:base64", "d1.1:gzip"]);
    expect(applied.map((l) => l.transforms)).toEqual([
      ["gzip", "base64"],
      ["split"],
      ["move-rename", "manifest"],
    ]);
    expect(plan.sections.flatMap((s) => s.steps.flatMap((x) => x.commands))).toEqual(restoreChain(text));
  });

  it("refuses an access text no transform writes, naming it", () => {
    const env = samplesFor(toyGzip)()[0] as FileTree;
    const target = [...env.keys()].find((p) => toyGzip.accepts(p, env.get(p) as Uint8Array)) as string;
    const out = toyGzip.apply({ env, targets: [target], params: {}, seed: 1 });
    const text = appendSpecUpdate(
      GOAL,
      renderSpecUpdate(
        1,
        "/app",
        [{ label: "d1.1", access: out.access }],
        [{ label: "d1.1", why: "x", run: out.restore[0]?.run ?? "" }],
      ),
    );
    expect(() => planFollow(text)).toThrow(FollowError);
    expect(() => planFollow(text)).toThrow(
      /d1\.1: the access text ".*is now stored gzip-compressed.*" matches no transform wording/,
    );
  });

  it("refuses a changed frame sentence and a changed word of a known wording", () => {
    const gz = listTransforms().find((t) => t.name === "gzip") as Transform<unknown>;
    const env = samplesFor(gz)()[0] as FileTree;
    const { text } = childInstruction(env, [[gz]], 3);
    const frame = text.replace("bring the files back to the form", "bring most files back to the form");
    expect(() => planFollow(frame)).toThrow(
      /the sentence "These commands, run in order.*most files.*" is not worded/,
    );
    const word = text.replace("decompress it (for example", "inflate it (for example");
    expect(() => planFollow(word)).toThrow(
      /d1\.1: the access text ".*inflate it.*" matches no transform wording/,
    );
    const lost = text.replace(/# d1\.1: [^\n]*\n[^\n]*\n/, "");
    expect(() => planFollow(lost)).toThrow(FollowError);
  });

  it("plans nothing for a root task", () => {
    expect(planFollow(GOAL)).toEqual({ kind: "none" });
  });
});

const root = tempDir("follow-wrap");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * For each case: the kit presents the input through the steps, then the agent's wrapper (installed
 * as the program) runs a probe program that prints digests of what it was given. One Python
 * process for every case: interpreter starts are slow on a loaded machine.
 */
const DRIVER = `
import contextlib, io, json, os, runpy, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import res_channel as c
out = []
for case in json.loads(sys.argv[2]):
    shown = c.present(case["src"], case["steps"], case["scratch"])
    sys.argv = [case["program"], shown]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        runpy.run_path(case["program"], run_name="__main__")
    out.append(buf.getvalue().strip())
print(json.dumps(out))
`;
const PROBE = `import hashlib, json, os, sys
p = sys.argv[1]
def files(r):
    return sorted(os.path.relpath(os.path.join(d, n), r) for d, _, ns in os.walk(r) for n in ns)
if os.path.isfile(p):
    out = [[os.path.basename(p), hashlib.sha256(open(p, "rb").read()).hexdigest()]]
else:
    out = [[f, hashlib.sha256(open(os.path.join(p, f), "rb").read()).hexdigest()] for f in files(p)]
print(json.dumps(out))
`;

function sampleInput(): string {
  const d = join(root, "input");
  mkdirSync(join(d, "nested", "deeper"), { recursive: true });
  writeFileSync(join(d, "orders.csv"), 'id,note\n1,"a, quoted"\n2,plain\n');
  writeFileSync(join(d, "nested", "log.txt"), "héllo wörld\n".repeat(400));
  writeFileSync(
    join(d, "nested", "deeper", "blob.bin"),
    Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 37) % 256)),
  );
  writeFileSync(join(d, "already.gz"), "not really gzip\n");
  return d;
}

/** Installs the agent's wrapper around a probe program for `decl`; returns the program's path. */
function install(decl: ChannelDecl, n: number): string {
  const app = join(root, `app-${n}`);
  mkdirSync(app, { recursive: true });
  const program = join(app, "tool.py");
  writeFileSync(program, PROBE);
  const d = { ...decl, program };
  const r = spawnSync("sh", ["-c", installCommand(d)], { input: wrapperSource(d), encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return program;
}

/** What the probe printed for each (input, channel) case, through the kit and the wrapper. */
function throughWrappers(cases: { src: string; decl: ChannelDecl }[]): string[] {
  const json = cases.map((c, n) => ({
    src: c.src,
    steps: c.decl.steps,
    program: install(c.decl, n),
    scratch: join(root, `scratch-${n}`),
  }));
  const r = spawnSync("python3", ["-B", "-c", DRIVER, channelKitPath(), JSON.stringify(json)], {
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as string[];
}

/** What the probe prints for the bare input (computed here, not by the code under test). */
function probe(src: string): string {
  const sha = (p: string): string => createHash("sha256").update(readFileSync(p)).digest("hex");
  if (statSync(src).isFile()) return JSON.stringify([[basename(src), sha(src)]]);
  const rels = (readdirSync(src, { recursive: true }) as string[])
    .filter((r) => statSync(join(src, r)).isFile())
    .sort();
  return JSON.stringify(rels.map((r) => [r, sha(join(src, r))]));
}

/** Steps of a folder or file input (the line steps are for streams only). */
const ARG_STEPS = CHANNEL_STEPS.filter((s) => !STREAM_STEPS.includes(s));

describe("follow: input channels", () => {
  it("can undo every channel step", () => {
    expect(CHANNEL_STEPS.filter((s) => !WRAPPABLE_STEPS.includes(s))).toEqual([]);
  });

  /** A channel child's instruction after `levels`, each level adding its steps (as build-channel-child does). */
  function channelInstruction(
    kind: "folder" | "file" | "stream",
    levels: ChannelDecl["steps"][],
  ): { text: string; decl: ChannelDecl } {
    let text = GOAL;
    const index = kind === "stream" ? 1 : 2;
    let decl: ChannelDecl = { program: "/app/tool.py", input_index: index, input_kind: kind, steps: [] };
    levels.forEach((steps, k) => {
      decl = { ...decl, steps: [...decl.steps, ...steps] };
      text = appendSpecUpdate(text, renderChannelUpdate(k + 1, decl));
    });
    return { text, decl };
  }
  const unseeded = (d: ChannelDecl): ChannelDecl => ({
    ...d,
    steps: d.steps.map((s) => ({ ...s, seed: 0 })),
  });

  it("reads every channel step, for folders and single files, from rendered updates", () => {
    for (const name of CHANNEL_STEPS) {
      for (const kind of ["folder", "file", "stream"] as const) {
        if (kind === "file" && !ONE_FILE_STEPS.includes(name)) continue;
        if ((kind === "stream") !== STREAM_STEPS.includes(name)) continue;
        for (const seed of [1, 2, 3, 4, 99]) {
          const { text, decl } = channelInstruction(kind, [[channelStep(name, seed)]]);
          const plan = planFollow(text);
          if (plan.kind !== "channel") throw new Error(`planned ${plan.kind}`);
          expect(plan.decl.steps).toEqual(unseeded(decl).steps);
          expect(plan.decl.program).toBe("/app/tool.py");
          expect(plan.decl.input_index).toBe(kind === "stream" ? 1 : 2);
          if (ONE_FILE_STEPS.includes(name) || kind === "stream") expect(plan.decl.input_kind).toBe(kind);
        }
      }
    }
  });

  it("takes the whole channel from the newest update of a deep lineage", () => {
    const rng = new Rng(7);
    const levels = Array.from({ length: 10 }, (_, k) => [
      channelStep(rng.pick(ARG_STEPS), k),
      channelStep(rng.pick(ARG_STEPS), 50 + k),
    ]);
    const { text, decl } = channelInstruction("folder", levels);
    const plan = planFollow(text);
    if (plan.kind !== "channel") throw new Error(`planned ${plan.kind}`);
    expect(plan.depth).toBe(10);
    expect(plan.decl).toEqual(unseeded(decl));
  });

  it("refuses a channel sentence it does not know, naming it", () => {
    const { text } = channelInstruction("folder", [[channelStep("gzip", 1)]]);
    const bad = text.replace("is gzip-compressed with", "is zstd-compressed with");
    expect(() => planFollow(bad)).toThrow(
      /step 1: the sentence ".*zstd-compressed.*" matches no channel step/,
    );
  });

  it("its wrapper gives the program the input as it was, for chains of every step", () => {
    const src = sampleInput();
    const rng = new Rng(2026);
    const chains: ChannelDecl["steps"][] = ARG_STEPS.map((n, i) => [channelStep(n, i + 1)]);
    for (let i = 0; i < 5; i++)
      chains.push(
        Array.from({ length: rng.int(2, 5) }, (_, k) => channelStep(rng.pick(ARG_STEPS), i * 10 + k)),
      );
    chains.push(
      [channelStep("split", 1), channelStep("split", 2)],
      [channelStep("archive", 1), channelStep("manifest", 2), channelStep("archive", 3)],
    );
    const file = join(src, "nested", "log.txt");
    const cases = chains.map((steps) => ({ src, kind: "folder" as const, steps }));
    // A single-file input comes back as one file of the same name and bytes.
    cases.push({
      src: file,
      kind: "file" as const,
      steps: [channelStep("text-reencode", 1), channelStep("layered-wrap", 2), channelStep("base64", 3)],
    } as never);
    const planned = cases.map((c) => {
      const plan = planFollow(channelInstruction(c.kind, [c.steps]).text);
      if (plan.kind !== "channel") throw new Error(`planned ${plan.kind}`);
      return { src: c.src, decl: plan.decl };
    });
    const got = throughWrappers(planned);
    cases.forEach((c, i) => {
      expect(JSON.parse(got[i] ?? "null"), c.steps.map((s) => s.name).join(" then ")).toEqual(
        JSON.parse(probe(c.src)),
      );
    });
    expect(readdirSync(join(root, "app-0")).sort()).toEqual([asideName("tool.py"), "tool.py"]);
  });
  it("its stream wrapper hands an interactive program every line as the grader wrote it", () => {
    // The grader's side is the kit's filter (`res_channel.py stream`), which encodes each line;
    // the program behind the agent's wrapper echoes what it reads, so the output must be the input.
    const steps = [
      channelStep("line-reverse", 1),
      channelStep("line-rotate", 4),
      channelStep("line-base64", 2),
      channelStep("line-hex", 3),
    ];
    const plan = planFollow(channelInstruction("stream", [steps.slice(0, 2), steps.slice(2)]).text);
    if (plan.kind !== "channel") throw new Error(`planned ${plan.kind}`);
    expect(plan.decl.input_kind).toBe("stream");
    const app = join(root, "app-stream");
    mkdirSync(app, { recursive: true });
    const program = join(app, "pilot.py");
    writeFileSync(
      program,
      "import sys\nfor line in sys.stdin:\n    sys.stdout.write('got ' + line)\n    sys.stdout.flush()\n",
    );
    const decl = { ...plan.decl, program };
    const inst = spawnSync("sh", ["-c", installCommand(decl)], {
      input: wrapperSource(decl),
      encoding: "utf8",
    });
    expect(inst.status, inst.stderr).toBe(0);
    const channel = join(root, "stream-channel.json");
    writeFileSync(channel, JSON.stringify({ ...decl, steps }));
    const lines = ['{"type": "init", "g": 1.62}', "", "päd ünïcode ✓", '{"type": "obs", "step": 0}'];
    const r = spawnSync("python3", ["-B", channelKitPath(), "stream", channel, "--", "python3", program], {
      input: `${lines.join("\n")}\n`,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(lines.map((l) => `got ${l}\n`).join(""));
    // Without the wrapper the program would read encoded lines: the channel changes something.
    const bare = spawnSync(
      "python3",
      ["-B", channelKitPath(), "stream", channel, "--", "python3", join(app, asideName("pilot.py"))],
      { input: `${lines.join("\n")}\n`, encoding: "utf8" },
    );
    expect(bare.stdout).not.toBe(r.stdout);
  });
});
