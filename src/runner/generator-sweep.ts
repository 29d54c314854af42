import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.js";
import { Rng } from "../core/rng.js";

/** One seed's outcome: the grader generated every hidden case (ok) or its generator failed. */
export interface GeneratorSeedResult {
  seed: number;
  ok: boolean;
  /** The grader's exit status (0 when it ran to the end). */
  code: number;
  /** The last lines of the grader's stderr when not ok. */
  error: string;
}

// Runs grade.py once per seed in one Python process, with no program under test
// (LONGHAUL_GENERATE_ONLY=1: lh.run reports a failure at once), so a seed costs only its
// generation. The task's modules are dropped between seeds so each seed starts as a verifier would.
const DRIVER = `
import io, json, os, runpy, sys, traceback, contextlib
tests, seeds = sys.argv[1], json.loads(sys.argv[2])
sys.path.insert(0, tests)
for seed in seeds:
    os.environ["LONGHAUL_SEED"] = str(seed)
    for name, mod in list(sys.modules.items()):
        if getattr(mod, "__file__", None) and os.path.abspath(mod.__file__).startswith(tests + os.sep):
            del sys.modules[name]
    import lh
    lh.rubric_ids.__defaults__ = (os.path.join(tests, "rubric.toml"),)
    err, code = io.StringIO(), 0
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            runpy.run_path(os.path.join(tests, "grade.py"), run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        code = 1
        err.write(traceback.format_exc())
    tail = " | ".join(err.getvalue().strip().splitlines()[-3:])[:500]
    print(json.dumps({"seed": seed, "code": code, "error": tail}), flush=True)
`;

const DriverLine = z.object({ seed: z.number(), code: z.number(), error: z.string() });

/** Seeds for a sweep: 0..9 first (small seeds are what people type), then seeded 32-bit ones. */
export function sweepSeeds(count: number, seed = 1): number[] {
  const rng = new Rng(seed);
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(i < 10 ? i : rng.nextU32() >>> 1);
  return out;
}

/**
 * Runs a bundled-style grader (tests/grade.py on the shared lh.py) in generate-only mode for
 * each seed, inside bubblewrap (read-only host, private /tmp, no network), and reports the seeds
 * whose hidden-case generator failed. A task without tests/grade.py and tests/lh.py is a user error.
 */
export async function sweepGenerators(taskDir: string, seeds: number[]): Promise<GeneratorSeedResult[]> {
  const tests = resolve(taskDir, "tests");
  for (const f of ["grade.py", "lh.py"]) {
    if (!existsSync(join(tests, f))) {
      throw new UserError(`${join(tests, f)}: missing; the generator sweep needs a grade.py on lh.py`);
    }
  }
  const argv = [
    ...["--ro-bind", "/", "/", "--tmpfs", "/tmp", "--ro-bind", tests, "/tmp/tests"],
    ...["--dev", "/dev", "--proc", "/proc"],
    ...["--unshare-all", "--die-with-parent", "--new-session"],
    ...["--setenv", "LONGHAUL_GENERATE_ONLY", "1", "--setenv", "LONGHAUL_VERIFIER_DIR", "/tmp/verifier"],
    ...["--setenv", "LONGHAUL_WORKDIR", "/tmp/app", "--setenv", "PYTHONDONTWRITEBYTECODE", "1"],
    ...["/usr/bin/python3", "-I", "-c", DRIVER, "/tmp/tests", JSON.stringify(seeds)],
  ];
  const stdout = await new Promise<string>((done, fail) => {
    execFile("bwrap", argv, { maxBuffer: 64 * 1024 * 1024 }, (err, out, stderr) => {
      if (err)
        fail(new Error(`generator sweep of ${taskDir} failed: ${err.message}\n${stderr.slice(-2000)}`));
      else done(out);
    });
  });
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => {
      const r = DriverLine.parse(JSON.parse(l));
      return { seed: r.seed, code: r.code, ok: r.code === 0, error: r.code === 0 ? "" : r.error };
    });
}
