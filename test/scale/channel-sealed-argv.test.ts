import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { channelStep } from "../../src/scale/channel/steps.js";
import { type ChannelChild, channelChild, runJson, wrapProgram } from "./support/channel-child.js";

/**
 * A grader that talks to the program itself (an episode: `Popen(sealed_argv([...]))`) gets the
 * child's input as `run()` would present it: before kit 8 such calls got the parent's input, so
 * a child's match subtasks (salvo-bot-audit's `play FLEET`) were not scaled at all.
 */
function setup(child: boolean): ChannelChild {
  return channelChild(
    "channel-sealed-argv",
    { input_index: 2, input_kind: "path", input_arg: "first-path", steps: [channelStep("base64", 3)] },
    child,
  );
}

/** What lh.sealed_argv returns for argv, from a grader beside the kit (no sealed runner here). */
function sealedArgv(tests: string, argv: string[]): string[] {
  const code = [
    "import json, sys",
    "sys.path.insert(0, sys.argv[1])",
    "import lh",
    "print(json.dumps(lh.sealed_argv(json.loads(sys.stdin.read()))))",
  ].join("\n");
  const r = spawnSync("python3", ["-I", "-B", "-c", code, tests], {
    encoding: "utf8",
    input: JSON.stringify(argv),
    env: { ...process.env, LONGHAUL_WORKDIR: "/nonexistent-app" },
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "[]");
}

describe("sealed_argv in a scaled child (kit 8)", () => {
  it("changes nothing outside a child", () => {
    const s = setup(false);
    const argv = ["python3", s.program, "play", s.file];
    expect(sealedArgv(s.tests, argv)).toEqual(argv);
  });

  it("presents the program's input in a child, and the child's wrapper restores it", () => {
    const s = setup(true);
    const argv = ["python3", s.program, "play", s.file];
    const got = sealedArgv(s.tests, argv);
    expect(got.slice(0, 3)).toEqual(argv.slice(0, 3));
    expect(got[3]).toMatch(/res-channel-.*\.b64$/);
    // The bare program reads the prepared bytes; wrapped as the child's restore does, its input.
    expect(runJson(got)).not.toEqual(["play", "payload\n"]);
    wrapProgram(s);
    expect(runJson(got)).toEqual(["play", "payload\n"]);
  });

  it("leaves a call of the task's own code (an argument under /tests) alone", () => {
    const s = setup(true);
    const argv = ["python3", s.program, "play", s.file, "/tests/reference.txt"];
    expect(sealedArgv(s.tests, argv)).toEqual(argv);
  });
});
