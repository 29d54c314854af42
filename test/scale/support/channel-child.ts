import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect } from "vitest";
import { type ChannelDecl, channelKitPath } from "../../../src/scale/channel/steps.js";
import { tempDir } from "../../runner/helpers.js";

/** A grader's folder with the kit beside it, a program, one input file and a channel declaration. */
export interface ChannelChild {
  dir: string;
  tests: string;
  program: string;
  /** cases/data.txt, holding "payload\n". */
  file: string;
  declPath: string;
}

/**
 * Sets up a program task's pieces for the kit's channel hooks: `tests/lh.py` (the current kit),
 * `app/tool.py` (prints its arguments as JSON, a file argument as the text it holds), and the
 * declaration; with `child`, also `tests/res/` as a scaled child carries it.
 */
export function channelChild(name: string, decl: Omit<ChannelDecl, "program">, child: boolean): ChannelChild {
  const dir = tempDir(name);
  const tests = join(dir, "tests");
  const app = join(dir, "app");
  for (const d of [tests, app, join(dir, "cases")]) mkdirSync(d, { recursive: true });
  const file = join(dir, "cases", "data.txt");
  writeFileSync(file, "payload\n");
  copyFileSync(resolve("kit/lh.py"), join(tests, "lh.py"));
  const program = join(app, "tool.py");
  writeFileSync(
    program,
    [
      "import json, os, sys",
      "print(json.dumps([open(a).read() if os.path.isfile(a) else a for a in sys.argv[1:]]))",
      "",
    ].join("\n"),
  );
  const declPath = join(dir, "channel.json");
  writeFileSync(declPath, JSON.stringify({ program, ...decl }));
  if (child) {
    mkdirSync(join(tests, "res"));
    copyFileSync(declPath, join(tests, "res", "channel.json"));
    copyFileSync(channelKitPath(), join(tests, "res", "res_channel.py"));
  }
  return { dir, tests, program, file, declPath };
}

/** Wraps the program as a child's restore does (the channel kit's `wrap`). */
export function wrapProgram(c: ChannelChild): void {
  const w = spawnSync("python3", ["-I", "-B", channelKitPath(), "wrap", c.program, c.declPath], {
    encoding: "utf8",
  });
  expect(w.status, w.stderr).toBe(0);
}

/** Runs argv and parses the JSON it prints. */
export function runJson(argv: readonly string[]): unknown {
  const r = spawnSync(argv[0] ?? "python3", argv.slice(1), { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}
