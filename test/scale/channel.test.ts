import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { channelSolutionFiles, channelTestFiles } from "../../src/scale/channel/materialize.js";
import {
  CHANNEL_STEPS,
  type ChannelDecl,
  channelAccess,
  channelKitPath,
  channelStep,
  detectProgram,
  ONE_FILE_STEPS,
} from "../../src/scale/channel/steps.js";
import { JobStore } from "../../src/store/index.js";
import { loadTasks } from "../../src/task/index.js";
import { jobConfig, tempDir } from "../runner/helpers.js";

const root = tempDir("res-channel");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the kit: present then restore; prints digests of the original, presented (twice) and restored trees. */
const ROUND_TRIP = `
import hashlib, json, os, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import res_channel as c
src, steps, scratch = sys.argv[2], json.loads(sys.argv[3]), sys.argv[4]
def digest(p):
    if os.path.isfile(p):
        return hashlib.sha256(open(p, "rb").read()).hexdigest()
    return [[r, hashlib.sha256(open(os.path.join(p, r), "rb").read()).hexdigest()] for r in c._files(p)]
a = c.present(src, steps, scratch)
b = c.present(src, steps, scratch)
r = c.restore(a, steps, scratch)
print(json.dumps({"orig": digest(src), "a": digest(a), "b": digest(b), "restored": digest(r), "names": c._files(a) if os.path.isdir(a) else [os.path.basename(a)]}))
`;

function roundTrip(
  src: string,
  steps: unknown[],
): { orig: unknown; a: unknown; b: unknown; restored: unknown; names: string[] } {
  const scratch = join(root, `scratch-${Math.random().toString(36).slice(2)}`);
  const r = spawnSync(
    "python3",
    ["-I", "-B", "-c", ROUND_TRIP, channelKitPath(), src, JSON.stringify(steps), scratch],
    {
      encoding: "utf8",
    },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
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
  for (const name of CHANNEL_STEPS) {
    it(`${name}: present is deterministic, changes the input, and restore brings it back`, () => {
      for (const seed of [1, 99]) {
        const step = channelStep(name, seed);
        const out = roundTrip(folder, [step]);
        expect(out.a).toEqual(out.b);
        expect(out.a).not.toEqual(out.orig);
        expect(out.restored).toEqual(out.orig);
        if (ONE_FILE_STEPS.includes(name)) {
          const one = roundTrip(file, [step]);
          expect(one.a).not.toEqual(one.orig);
          expect(one.restored).toEqual(one.orig);
          expect(one.names).toHaveLength(1);
        }
      }
    });
  }

  it("composes: seeded chains of 2 to 5 steps (repeats included) round-trip", () => {
    const rng = new Rng(2026);
    for (let i = 0; i < 12; i++) {
      const chain = Array.from({ length: rng.int(2, 5) }, (_, k) =>
        channelStep(rng.pick(CHANNEL_STEPS), i * 10 + k),
      );
      const out = roundTrip(folder, chain);
      expect(out.restored, chain.map((s) => s.name).join(" then ")).toEqual(out.orig);
    }
    // The same step twice: an archive inside an archive, a manifest of a manifest.
    for (const name of ["archive", "manifest", "split"] as const) {
      const out = roundTrip(folder, [channelStep(name, 1), channelStep(name, 2)]);
      expect(out.restored, `${name} twice`).toEqual(out.orig);
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

  it("finds the program and its input in the bundled program tasks", () => {
    const found = detectProgram(resolve("tasks/loan-schedule/tests"), "/app");
    expect(found).toEqual({ program: "/app/loan.py", inputIndex: 2, inputKind: "folder" });
    expect(detectProgram(resolve("tasks/orbit-propagate/tests"), "/app")?.inputKind).toBe("file");
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
