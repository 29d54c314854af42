import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseChannelSection } from "../../src/scale/agent/parse-channel.js";
import { renderChannelUpdate } from "../../src/scale/channel/build-channel-child.js";
import { detectProgram } from "../../src/scale/channel/detect-program.js";
import { type ChannelDecl, channelStep } from "../../src/scale/channel/steps.js";
import { type ChannelChild, channelChild, runJson, wrapProgram } from "./support/channel-child.js";

/**
 * A grader that runs its program many times from a batch runner of its own hands the steps to the
 * kit's `present_steps(steps, ro, commands=(...))`: in a scaled child only calls of the named
 * subcommands get presented inputs, and the presented copies are added to what the sealed run
 * shows; the child's wrapper leaves every other call alone, even when it names an existing path
 * (state the program changes in place).
 */
interface Setup extends ChannelChild {
  repo: string;
}

function setup(child: boolean): Setup {
  const c = channelChild(
    "channel-commands",
    {
      input_index: 2,
      input_kind: "path",
      input_arg: "first-path",
      commands: ["read"],
      steps: [channelStep("base64", 5)],
    },
    child,
  );
  const repo = join(c.dir, "cases", "repo");
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, "index.json"), '{"n": 1}\n');
  return { ...c, repo };
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
    expect(runJson(got.steps[0] ?? [])).not.toEqual(["read", "payload\n"]);
    wrapProgram(s);
    expect(runJson(got.steps[0] ?? [])).toEqual(["read", "payload\n"]);
    expect(runJson(got.steps[1] ?? [])).toEqual(["write", s.repo, "payload\n"]);
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
