import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { channelKitPath } from "../../src/scale/channel/steps.js";
import { tempDir } from "../runner/helpers.js";

const root = tempDir("res-run-as-main");
const PYTHON = "/usr/bin/python3";
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What a program sees of itself when it runs: its globals, argv[0], its module, pickling. */
const PROBE = [
  '"""probe doc"""',
  "import dataclasses, json, pickle, sys",
  "@dataclasses.dataclass",
  "class P:",
  '    a: "int"',
  'g = {k: repr(globals().get(k)) for k in ("__name__", "__file__", "__package__", "__spec__", "__loader__", "__cached__", "__doc__")}',
  'print(json.dumps({"g": g, "argv0": sys.argv[0], "main": sys.modules["__main__"].__dict__ is globals(), "pickle": pickle.loads(pickle.dumps(P(3))).a, "args": sys.argv[1:]}, sort_keys=True))',
  "sys.exit(int(sys.argv[1]))",
  "",
].join("\n");

/** Runs PROGRAM as the wrapper does (`kit`) or as the wrapper did before (`runpy`), then reports
 * what the caller has back: its __main__ module and argv[0]. */
const DRIVER = [
  "import json, runpy, sys",
  "sys.path.insert(0, sys.argv[1])",
  "import res_channel",
  "how, program = sys.argv[2], sys.argv[3]",
  "sys.argv = ['wrapper', '0']",
  "before = sys.modules['__main__']",
  "code = None",
  "try:",
  "    if how == 'kit':",
  "        res_channel.run_as_main(program)",
  "    else:",
  "        runpy.run_path(program, run_name='__main__')",
  "except SystemExit as e:",
  "    code = e.code",
  "sys.stderr.write(json.dumps({'code': code, 'main_back': sys.modules['__main__'] is before, 'argv0': sys.argv[0]}))",
  "",
].join("\n");

function run(how: "kit" | "runpy", program: string): { stdout: string; stderr: string } {
  const r = spawnSync(PYTHON, ["-I", "-c", DRIVER, join(channelKitPath(), ".."), how, program], {
    encoding: "utf8",
    cwd: root,
  });
  expect(r.status, r.stderr).toBe(0);
  return { stdout: r.stdout, stderr: r.stderr };
}

/**
 * The reference wrapper runs the parent's program with the kit's run_as_main rather than
 * runpy.run_path, whose imports (pkgutil, typing) cost every graded call a few ms: the program
 * must not see the difference.
 */
describe("the channel kit's run_as_main", () => {
  it("gives a program what runpy.run_path gives it, from source and from compiled code", () => {
    const dir = join(root, "app");
    mkdirSync(dir, { recursive: true });
    const source = join(dir, "probe.py");
    writeFileSync(source, PROBE);
    const compiled = join(dir, "probe.pyc");
    const c = spawnSync(
      PYTHON,
      [
        "-I",
        "-c",
        "import py_compile, sys; py_compile.compile(sys.argv[1], sys.argv[2], doraise=True)",
        source,
        compiled,
      ],
      { encoding: "utf8" },
    );
    expect(c.status, c.stderr).toBe(0);
    for (const program of [source, compiled]) {
      const kit = run("kit", program);
      const old = run("runpy", program);
      expect(kit).toEqual(old);
      const seen = JSON.parse(kit.stdout) as { g: Record<string, string>; main: boolean; pickle: number };
      expect(seen.g.__name__).toBe("'__main__'");
      expect(seen.main).toBe(true);
      expect(seen.pickle).toBe(3);
      expect(JSON.parse(kit.stderr)).toEqual({ code: 0, main_back: true, argv0: "wrapper" });
    }
  });
});
