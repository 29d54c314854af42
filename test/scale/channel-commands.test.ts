import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseChannelSection } from "../../src/scale/agent/parse-channel.js";
import { renderChannelUpdate } from "../../src/scale/channel/build-channel-child.js";
import {
  type ChannelDecl,
  channelKitPath,
  channelStep,
  detectProgram,
} from "../../src/scale/channel/steps.js";
import { tempDir } from "../runner/helpers.js";

/**
 * A grader that runs its program many times from a batch runner of its own hands the steps to the
 * kit's `present_steps(steps, ro, commands=(...))`: in a scaled child only calls of the named
 * subcommands get presented inputs, and the presented copies are added to what the sealed run
 * shows; the child's wrapper leaves every other call alone, even when it names an existing path
 * (state the program changes in place).
 */
const KIT = resolve("kit/lh.py");

interface Setup {
  tests: string;
  program: string;
  repo: string;
  file: string;
  declPath: string;
}

function setup(child: boolean): Setup {
  const dir = tempDir("channel-commands");
  const tests = join(dir, "tests");
  const app = join(dir, "app");
  const repo = join(dir, "cases", "repo");
  mkdirSync(repo, { recursive: true });
  mkdirSync(app, { recursive: true });
  mkdirSync(tests, { recursive: true });
  writeFileSync(join(repo, "index.json"), '{"n": 1}\n');
  const file = join(dir, "cases", "data.txt");
  writeFileSync(file, "payload\n");
  copyFileSync(KIT, join(tests, "lh.py"));
  // The program shows its argv and what each existing file argument holds.
  const program = join(app, "tool.py");
  writeFileSync(
    program,
    [
      "import json, os, sys",
      "def show(p):",
      "    return open(p).read() if os.path.isfile(p) else p",
      "print(json.dumps([show(a) for a in sys.argv[1:]]))",
      "",
    ].join("\n"),
  );
  const decl: ChannelDecl = {
    program,
    input_index: 2,
    input_kind: "path",
    input_arg: "first-path",
    commands: ["read"],
    steps: [channelStep("base64", 5)],
  };
  const declPath = join(dir, "channel.json");
  writeFileSync(declPath, JSON.stringify(decl));
  if (child) {
    mkdirSync(join(tests, "res"));
    copyFileSync(declPath, join(tests, "res", "channel.json"));
    copyFileSync(channelKitPath(), join(tests, "res", "res_channel.py"));
  }
  return { tests, program, repo, file, declPath };
}

/** present_steps over `steps` from a grader beside the kit; what it returned. */
function presentSteps(s: Setup, steps: string[][]): { steps: string[][]; ro: string[] } {
  const code = `
import json, sys
sys.path.insert(0, sys.argv[1])
import lh
steps, ro = lh.present_steps(json.loads(sys.stdin.read()), ("/cases",), commands=("read",))
print(json.dumps({"steps": steps, "ro": list(ro)}))
`;
  const r = spawnSync("python3", ["-I", "-B", "-c", code, s.tests], {
    encoding: "utf8",
    input: JSON.stringify(steps),
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

function run(argv: string[]): unknown {
  const r = spawnSync(argv[0] ?? "python3", argv.slice(1), { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("a channel limited to some subcommands (batch-runner graders)", () => {
  it("outside a scaled child present_steps changes nothing", () => {
    const s = setup(false);
    const steps = [["python3", s.program, "read", s.file]];
    expect(presentSteps(s, steps)).toEqual({ steps, ro: ["/cases"] });
  });

  it("presents only calls of the named subcommands, shows the copies, and the wrapper restores only those", () => {
    const s = setup(true);
    const steps = [
      ["python3", s.program, "read", s.file],
      ["python3", s.program, "write", s.repo, s.file],
      ["python3", s.program, "read", s.repo],
    ];
    const got = presentSteps(s, steps);
    expect(got.steps[1]).toEqual(steps[1]);
    expect(got.steps[0]?.[3]).not.toBe(s.file);
    expect(got.steps[0]?.[3]).toMatch(/\.b64$/);
    expect(got.steps[2]?.[3]).not.toBe(s.repo);
    // Each presented copy is shown read-only (the batch's argv never reaches the sealed runner).
    expect(got.ro.length).toBe(3);
    expect(got.ro.slice(1).every((p) => p.includes("res-channel-"))).toBe(true);
    // The bare program reads the prepared bytes; wrapped, the read call gets its input back and
    // the write call keeps the very path it was given (its state is changed in place).
    expect(run(got.steps[0] ?? [])).not.toEqual(["read", "payload\n"]);
    const w = spawnSync("python3", ["-I", "-B", channelKitPath(), "wrap", s.program, s.declPath], {
      encoding: "utf8",
    });
    expect(w.status, w.stderr).toBe(0);
    expect(run(got.steps[0] ?? [])).toEqual(["read", "payload\n"]);
    expect(run(got.steps[1] ?? [])).toEqual(["write", s.repo, "payload\n"]);
  });

  it("the public words name the subcommands, and the agent reads them back", () => {
    const decl: ChannelDecl = {
      program: "/app/snap.py",
      input_index: 2,
      input_kind: "path",
      input_arg: "first-path",
      commands: ["chunk", "restore", "audit"],
      // Seed 0: a step's seed is not in the public words (the agent reads it as 0).
      steps: [channelStep("gzip", 0), channelStep("base64", 0)],
    };
    const text = renderChannelUpdate(3, decl);
    expect(text).toContain("in a call whose first argument is one of `chunk`, `restore`, `audit`");
    expect(parseChannelSection({ depth: 3, text, steps: [] })).toEqual(decl);
  });

  it("finds the batch-runner graders of the bundled tasks and the subcommands they name", () => {
    const found = (t: string) => detectProgram(resolve("tasks", t, "tests"), "/app");
    expect(found("backup-chain-repair")).toEqual({
      program: "/app/snap.py",
      inputIndex: 2,
      inputKind: "path",
      inputArg: "first-path",
      commands: ["chunk", "restore", "diff", "forget", "audit"],
    });
    expect(found("build-graph-repair")?.commands).toEqual(["plan"]);
    expect(found("schema-migrate-repair")).toMatchObject({ program: "/app/migrate.py", commands: ["audit"] });
  });
});
