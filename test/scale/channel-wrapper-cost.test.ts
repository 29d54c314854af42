import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ChannelDecl, channelKitPath, channelStep } from "../../src/scale/channel/steps.js";
import { tempDir } from "../runner/helpers.js";

const root = tempDir("res-wrapper-cost");
const PYTHON = "/usr/bin/python3";
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * The reference solution's wrapper runs on every graded call of the program, so what it loads is
 * paid once per call: the kit comes from bytecode compiled when the wrapper was put in place, and
 * a channel without archives or gzip loads none of tarfile, gzip, hashlib, shutil or tempfile, and
 * no wrapper loads runpy (pkgutil, typing) or base64 (re): the program's own imports aside, a call
 * costs the kit's bytecode and the steps' work.
 */
describe("the channel wrapper's per-call cost", () => {
  it("loads the kit from bytecode compiled at wrap time, and only the modules its steps need", () => {
    const app = join(root, "app");
    const input = join(root, "in");
    mkdirSync(app, { recursive: true });
    mkdirSync(input, { recursive: true });
    writeFileSync(join(input, "a.csv"), "id,v\n1,x\n");
    const program = join(app, "tool.py");
    writeFileSync(
      program,
      [
        "import json, os, sys",
        "heavy = [m for m in ('tarfile', 'gzip', 'hashlib', 'shutil', 'tempfile', 'runpy', 'pkgutil', 'typing', 'base64') if m in sys.modules]",
        "d = sys.argv[1]",
        "print(json.dumps({'heavy': heavy, 'files': {n: open(os.path.join(d, n)).read() for n in sorted(os.listdir(d))}}))",
        "",
      ].join("\n"),
    );
    const decl: ChannelDecl = {
      program,
      input_index: 2,
      input_kind: "folder",
      steps: [channelStep("base64", 3), channelStep("manifest", 4), channelStep("text-reencode", 5)],
    };
    const declPath = join(root, "channel.json");
    writeFileSync(declPath, JSON.stringify(decl));
    const kitDir = join(channelKitPath(), "..");
    const present = spawnSync(
      "python3",
      [
        "-I",
        "-B",
        "-c",
        "import sys; sys.path.insert(0, sys.argv[1]); import res_channel as c; print(c.present(sys.argv[2], c.load(sys.argv[3])['steps'], sys.argv[4]))",
        kitDir,
        input,
        declPath,
        join(root, "presented"),
      ],
      { encoding: "utf8" },
    );
    expect(present.status, present.stderr).toBe(0);
    const presented = present.stdout.trim();
    // The system interpreter, as in a task's image (a version manager's shim may load more at start).
    const wrap = spawnSync(PYTHON, ["-I", "-B", channelKitPath(), "wrap", program, declPath], {
      encoding: "utf8",
    });
    expect(wrap.status, wrap.stderr).toBe(0);
    // -B: nothing is written at call time, as in a graded call (the folder is read-only there);
    // -v names where each module's code came from.
    const call = spawnSync(PYTHON, ["-B", "-v", program, presented], { encoding: "utf8", cwd: root });
    expect(call.status, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout)).toEqual({ heavy: [], files: { "a.csv": "id,v\n1,x\n" } });
    expect(call.stderr).toMatch(/# code object from '[^']*\/\.res\/__pycache__\/res_channel\.[^']*\.pyc'/);
  });

  it("restores into a folder of its own even when names under /tmp were planted in advance", () => {
    // The wrapper's folder name is predictable (prefix, pid, counter): something left in /tmp
    // under that name, a symlink to elsewhere or a folder holding files, is skipped, never used.
    const tmp = join(root, "tmp");
    const elsewhere = join(root, "elsewhere");
    mkdirSync(tmp, { recursive: true });
    mkdirSync(elsewhere, { recursive: true });
    const r = spawnSync(
      PYTHON,
      [
        "-I",
        "-B",
        "-c",
        [
          "import json, os, sys",
          "sys.path.insert(0, sys.argv[1])",
          "import res_channel as c",
          "tmp, elsewhere = os.environ['TMPDIR'], sys.argv[2]",
          "os.symlink(elsewhere, os.path.join(tmp, 'restore-%d-0' % os.getpid()))",
          "os.mkdir(os.path.join(tmp, 'restore-%d-1' % os.getpid()))",
          "open(os.path.join(tmp, 'restore-%d-1' % os.getpid(), 'planted'), 'w').close()",
          "got = c.fresh_dir('restore-')",
          "print(json.dumps({'name': os.path.basename(got), 'real': os.path.realpath(got) == got, 'empty': os.listdir(got) == [], 'elsewhere': os.listdir(elsewhere), 'pid': os.getpid()}))",
        ].join("\n"),
        join(channelKitPath(), ".."),
        elsewhere,
      ],
      { encoding: "utf8", env: { PATH: "/usr/bin:/bin", TMPDIR: tmp } },
    );
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as {
      name: string;
      real: boolean;
      empty: boolean;
      elsewhere: string[];
      pid: number;
    };
    expect(got).toEqual({
      name: `restore-${got.pid}-2`,
      real: true,
      empty: true,
      elsewhere: [],
      pid: got.pid,
    });
  });
});
