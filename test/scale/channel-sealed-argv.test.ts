import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { type ChannelDecl, channelKitPath, channelStep } from "../../src/scale/channel/steps.js";
import { tempDir } from "../runner/helpers.js";

/**
 * A grader that talks to the program itself (an episode: `Popen(sealed_argv([...]))`) gets the
 * child's input as `run()` would present it: before kit 8 such calls got the parent's input, so
 * a child's match subtasks (salvo-bot-audit's `play CONFIG`) were not scaled at all.
 */
const KIT = resolve("kit/lh.py");

function setup(child: boolean): { tests: string; program: string; file: string; declPath: string } {
  const dir = tempDir("channel-sealed-argv");
  const tests = join(dir, "tests");
  const app = join(dir, "app");
  mkdirSync(join(dir, "cases"), { recursive: true });
  mkdirSync(app, { recursive: true });
  mkdirSync(tests, { recursive: true });
  const file = join(dir, "cases", "fleet.txt");
  writeFileSync(file, "payload\n");
  copyFileSync(KIT, join(tests, "lh.py"));
  const program = join(app, "bot.py");
  writeFileSync(
    program,
    [
      "import json, os, sys",
      "print(json.dumps([open(a).read() if os.path.isfile(a) else a for a in sys.argv[1:]]))",
      "",
    ].join("\n"),
  );
  const decl: ChannelDecl = {
    program,
    input_index: 2,
    input_kind: "path",
    input_arg: "first-path",
    steps: [channelStep("base64", 3)],
  };
  const declPath = join(dir, "channel.json");
  writeFileSync(declPath, JSON.stringify(decl));
  if (child) {
    mkdirSync(join(tests, "res"));
    copyFileSync(declPath, join(tests, "res", "channel.json"));
    copyFileSync(channelKitPath(), join(tests, "res", "res_channel.py"));
  }
  return { tests, program, file, declPath };
}

/** What lh.sealed_argv returns for argv, from a grader beside the kit (no sealed runner here). */
function sealedArgv(tests: string, argv: string[]): string[] {
  const code =
    "import json, sys\nsys.path.insert(0, sys.argv[1])\nimport lh\nprint(json.dumps(lh.sealed_argv(json.loads(sys.stdin.read()))))";
  const r = spawnSync("python3", ["-I", "-B", "-c", code, tests], {
    encoding: "utf8",
    input: JSON.stringify(argv),
    env: { ...process.env, LONGHAUL_WORKDIR: "/nonexistent-app" },
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "[]");
}

function output(argv: string[]): unknown {
  const r = spawnSync(argv[0] ?? "python3", argv.slice(1), { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
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
    expect(output(got)).not.toEqual(["play", "payload\n"]);
    const w = spawnSync("python3", ["-I", "-B", channelKitPath(), "wrap", s.program, s.declPath], {
      encoding: "utf8",
    });
    expect(w.status, w.stderr).toBe(0);
    expect(output(got)).toEqual(["play", "payload\n"]);
  });

  it("leaves a call of the task's own code (an argument under /tests) alone", () => {
    const s = setup(true);
    const argv = ["python3", s.program, "play", s.file, "/tests/reference.txt"];
    expect(sealedArgv(s.tests, argv)).toEqual(argv);
  });
});
