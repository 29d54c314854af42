import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealedRunDir } from "../../src/grading/sealed-run-path.js";
import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import type { BwrapSandbox } from "../../src/sandbox/bwrap-sandbox.js";
import type { ExecOptions, Sandbox } from "../../src/sandbox/types.js";
import { cgroupsWritable } from "../support/cgroups.js";

/** Whether the host's bwrap (the one these sandboxes nest) is at least MAJOR.MINOR. */
function bwrapAtLeast(major: number, minor: number): boolean {
  const m = /bubblewrap (\d+)\.(\d+)/.exec(execFileSync("bwrap", ["--version"], { encoding: "utf8" }));
  const [a, b] = [Number(m?.[1] ?? 0), Number(m?.[2] ?? 0)];
  return a > major || (a === major && b >= minor);
}

const TESTS = resolve(import.meta.dirname, "../fixtures/tasks/sealed/tests");

/** What a candidate's program tries from inside sealed-run; prints one JSON line. */
const PROBE = `import json, os, signal, subprocess, sys
r = {}
def attempt(name, fn):
    try:
        fn()
        r[name] = "ok"
    except Exception as e:
        r[name] = type(e).__name__
attempt("read_tests", lambda: open("/tests/grade.py").read())
attempt("write_verifier_logs", lambda: open("/logs/verifier/reward.json", "w").write("{}"))
attempt("write_workdir", lambda: open("/app/scratch", "w").write("x"))
vpid = int(sys.argv[1])
attempt("read_verifier_environ", lambda: open("/proc/%d/environ" % vpid).read())
attempt("kill_verifier", lambda: os.kill(vpid, signal.SIGKILL))
r["seed_visible"] = "LONGHAUL_SEED" in os.environ
r["env"] = sorted(os.environ)
r["tmp"] = sorted(os.listdir("/tmp"))
subprocess.Popen(["sleep", str(400 + 17)], start_new_session=True)
print(json.dumps(r))
`;

describe("sealed-run (grader kit)", () => {
  let root: string;
  let sandbox: Sandbox;
  const verifier = (nested: boolean): ExecOptions => ({
    mounts: [
      { hostPath: TESTS, sandboxPath: "/tests", readonly: true },
      { hostPath: sealedRunDir(), sandboxPath: "/longhaul/kit", readonly: true },
    ],
    env: { LONGHAUL_SEED: "4242", LONGHAUL_WORKDIR: "/app" },
    cwd: "/tests",
    freshDirs: ["/root", "/tmp"],
    nestedSandbox: nested,
    timeoutSec: 60,
  });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "longhaul-sealed-run-"));
    sandbox = await new BwrapProvider().create({
      environmentDir: null,
      workdir: "/app",
      memoryMb: 512,
      cpus: 1,
      pidsMax: 256,
      allowInternet: false,
      stateDir: join(root, "state"),
    });
    await sandbox.exec(["sh", "-c", "cat > /app/probe.py"], { stdin: PROBE });
  });
  afterAll(async () => {
    await sandbox?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("hides the tests, the seed and the reward files, and the verifier's processes", async () => {
    const script = [
      "sleep 60 & v=$!",
      "echo verifier-only > /tmp/verifier-file",
      "/longhaul/kit/sealed-run --timeout 20 -- python3 /app/probe.py $v",
      'echo "rc=$?"',
      'kill -0 $v && echo "verifier-alive"',
      // Anything the program left running died with the call.
      "sleep 0.3; for f in /proc/[0-9]*/cmdline; do [ \"$(tr '\\0' ' ' < $f 2>/dev/null)\" = 'sleep 417 ' ] && echo left; done | wc -l",
      "ls /logs/verifier",
    ].join("\n");
    const r = await sandbox.exec(script, verifier(true));
    const lines = r.stdout.trim().split("\n");
    const probe = JSON.parse(lines[0] ?? "{}") as Record<string, unknown>;
    expect(probe).toMatchObject({
      read_tests: "FileNotFoundError",
      write_verifier_logs: "FileNotFoundError",
      write_workdir: "OSError",
      read_verifier_environ: "PermissionError",
      seed_visible: false,
      env: ["HOME", "LANG", "OLDPWD", "PATH", "PWD"],
      tmp: [],
    });
    // The verifier's pid means nothing in the program's pid namespace.
    expect(probe.kill_verifier).not.toBe("ok");
    expect(lines.slice(1, 4)).toEqual(["rc=0", "verifier-alive", "0"]);
    expect(lines.slice(4)).toEqual([]);
  });

  it("hands inputs read-only and outputs back, hiding their siblings; times out; costs little", async () => {
    const script = [
      "mkdir -p /tmp/c && echo 5 > /tmp/c/in && echo secret > /tmp/c/answer",
      "SR=/longhaul/kit/sealed-run",
      `$SR --auto -- sh -c 'cat /tmp/c/answer 2>/dev/null; ls /tmp/c | tr "\\n" " "; cat "$1" > "$2"; echo x > "$1"' sh /tmp/c/in /tmp/c/out`,
      'echo "rc=$? out=$(cat /tmp/c/out) in=$(cat /tmp/c/in)"',
      "$SR --timeout 1 -- sleep 30; echo timeout-rc=$?",
      "t0=$(date +%s%N); for i in 1 2 3 4 5; do $SR -- true; done; echo ms=$(( ($(date +%s%N) - t0) / 5000000 ))",
    ].join("\n");
    const r = await sandbox.exec(script, verifier(true));
    const lines = r.stdout.trim().split("\n");
    // Only the input is there (the answer next to it is not), and it cannot be changed: exit 2.
    expect(lines[0]).toBe("in rc=2 out=5 in=5");
    expect(lines[1]).toBe("timeout-rc=124");
    const ms = Number(lines[2]?.replace("ms=", ""));
    process.stderr.write(`sealed-run: ${ms} ms per call\n`);
    expect(ms).toBeGreaterThan(0);
  });

  it("hands back only regular files and folders: an output that is a link or a FIFO is dropped", async () => {
    // A link made in the program's view resolves in the grader's, where /tests is: an output
    // `out -> /tests/expected` read by the grader was the hidden answer (R = 1); a FIFO blocked
    // the grader's read until its timeout (a grading error of the agent's choosing).
    const script = [
      "mkdir -p /tmp/c",
      "SR=/longhaul/kit/sealed-run",
      `$SR --out /tmp/c/link -- ln -s /tests/grade.py /tmp/c/link; echo "link rc=$? $(ls -A /tmp/c)"`,
      `$SR --out /tmp/c/fifo -- mkfifo /tmp/c/fifo; echo "fifo rc=$? $(ls -A /tmp/c)"`,
      `$SR --out /tmp/c/d -- sh -c 'mkdir /tmp/c/d && echo ok > /tmp/c/d/f && ln -s /tests/grade.py /tmp/c/d/l && mkfifo /tmp/c/d/p'`,
      'echo "dir rc=$? $(ls -A /tmp/c/d | tr "\\n" " ")$(cat /tmp/c/d/f)"',
      // An empty folder that --auto binds writable is written in place: the same rule.
      "mkdir /tmp/c/e",
      `$SR --auto -- sh -c 'echo ok > "$1/f"; ln -s /tests/grade.py "$1/l"; mkfifo "$1/p"' sh /tmp/c/e`,
      'echo "auto rc=$? $(ls -A /tmp/c/e | tr "\\n" " ")$(cat /tmp/c/e/f)"',
    ].join("\n");
    const r = await sandbox.exec(script, verifier(true));
    expect(r.stdout.trim().split("\n")).toEqual([
      "link rc=0 ",
      "fifo rc=0 ",
      "dir rc=0 f ok",
      "auto rc=0 f ok",
    ]);
  });

  it("hands back no link or FIFO inside a folder the program made unlistable (chmod 333)", async () => {
    // No capability passes a mode in the verifier: a folder it may write and traverse but not
    // read could be neither listed nor removed, so it was moved back whole and the grader
    // followed `d/k -> /tests/...` in its own view (R = 1 on adv-vault-out). Also for a folder
    // --auto binds writable, which the program owns and may chmod as well.
    const script = [
      "mkdir -p /tmp/c/e",
      "SR=/longhaul/kit/sealed-run",
      `$SR --out /tmp/c/d -- sh -c 'mkdir -p /tmp/c/d/s && echo ok > /tmp/c/d/s/f && ln -s /tests/grade.py /tmp/c/d/k && ln -s /tests/grade.py /tmp/c/d/s/k && mkfifo /tmp/c/d/s/p && chmod 333 /tmp/c/d/s /tmp/c/d'`,
      'echo "dir rc=$? $(cd /tmp/c/d && find . | sort | tr "\n" " ")$(cat /tmp/c/d/s/f)"',
      `$SR --auto -- sh -c 'mkdir "$1/s" && ln -s /tests/grade.py "$1/s/k" && echo ok > "$1/f" && chmod 333 "$1/s" "$1"' sh /tmp/c/e`,
      'echo "auto rc=$? $(cd /tmp/c/e && find . | sort | tr "\n" " ")$(cat /tmp/c/e/f)"',
    ].join("\n");
    const r = await sandbox.exec(script, verifier(true));
    expect(r.stdout.trim().split("\n")).toEqual(["dir rc=0 . ./s ./s/f ok", "auto rc=0 . ./f ./s ok"]);
  });

  it("hands back outputs in several folders, access given back deep inside (folders and files of mode 000)", async () => {
    const script = [
      "mkdir -p /tmp/c/x /tmp/c/y && echo hidden > /tmp/c/x/sibling",
      "SR=/longhaul/kit/sealed-run",
      `$SR --out /tmp/c/x/o1 --out /tmp/c/y/o2 -- sh -c 'ls -A /tmp/c/x > /tmp/c/x/o1; mkdir -p /tmp/c/y/o2/s/t && echo deep > /tmp/c/y/o2/s/t/f && ln -s /tests/grade.py /tmp/c/y/o2/s/t/k && chmod 000 /tmp/c/y/o2/s/t/f /tmp/c/y/o2/s/t && chmod 300 /tmp/c/y/o2/s'`,
      'echo "rc=$? o1=[$(cat /tmp/c/x/o1)] f=$(cat /tmp/c/y/o2/s/t/f) t=$(ls -A /tmp/c/y/o2/s/t | tr "\\n" " ")x=$(ls -A /tmp/c/x | tr "\\n" " ")"',
      // Nothing of the staging is left in the verifier's /tmp: only the bwrap version it looked up once.
      "ls -A /tmp | grep sealed-run",
    ].join("\n");
    const r = await sandbox.exec(script, verifier(true));
    expect(r.stdout.trim().split("\n")).toEqual([
      "rc=0 o1=[o1] f=deep t=f x=o1 sibling ",
      ".sealed-run-bwrap-version",
    ]);
  });

  it("costs few processes: a call starts at most 4 processes, one with an output folder at most 10", async () => {
    // Pids in the verifier's pid namespace are handed out one after another, the nested
    // sandbox's processes included: the difference counts every process a call started. A
    // grader makes hundreds of calls; each process the runner itself starts costs ~1.5 ms.
    // (Counts include the nested sandbox's own processes; the rlimit fallback adds one.)
    const script = [
      "SR=/longhaul/kit/sealed-run",
      "mkdir -p /tmp/c",
      // The first call of a verifier also looks up bwrap's version (two processes, once).
      "$SR -- true",
      "a=$(sh -c 'echo $$')",
      `$SR --timeout 9 --out /tmp/c/d -- sh -c 'mkdir /tmp/c/d && exec true'`,
      "b=$(sh -c 'echo $$')",
      "$SR --timeout 9 -- true",
      "c=$(sh -c 'echo $$')",
      'echo "$((b - a - 1)) $((c - b - 1))"',
    ].join("\n");
    const r = await sandbox.exec(script, verifier(true));
    const [withOut, plain] = r.stdout.trim().split(" ").map(Number);
    process.stderr.write(`sealed-run: ${withOut} processes with an output folder, ${plain} without\n`);
    // This script, bwrap (started from its fork), the sandbox's first process and the program:
    // no launcher shell, timeout, setpriv or marker file (the direct way, bwrap 0.8 and later;
    // an older one takes the marked way, 7 and 11).
    const direct = bwrapAtLeast(0, 8);
    expect(withOut).toBeLessThanOrEqual(direct ? 10 : 11);
    expect(plain).toBeLessThanOrEqual(direct ? 4 : 7);
  });

  it("starts the program straight from bwrap, and tells a missing program or folder from a broken sandbox", async () => {
    const script = [
      "SR=/longhaul/kit/sealed-run",
      "echo 'exit 3' > /tmp/only-here.sh && chmod +x /tmp/only-here.sh",
      // Exit status, stdin from a file and from the call's own, a fraction of a second's limit.
      "$SR -- sh -c 'exit 7'; echo exit=$?",
      "echo from-file > /tmp/in && $SR --stdin /tmp/in -- cat",
      "echo piped | $SR -- cat",
      "$SR --timeout 0.3 -- sleep 20; echo frac=$?",
      "$SR --timeout 9 -- sh -c 'kill -9 $$'; echo killed=$?",
      // The status pipe is bwrap's own: the program holds what a program the verifier starts holds.
      'list=\'ls /proc/self/fd | tr "\\n" " "\'',
      '[ "$(sh -c "$list")" = "$($SR -- sh -c "$list")" ] && echo same-fds || echo other-fds',
      // Not there at all: the marked way alone, with the shell's statuses.
      "$SR -- no-such-program 2>/tmp/e1; echo missing=$? $(grep -c bwrap /tmp/e1)",
      "$SR --cwd /no/such/folder -- true 2>/dev/null; echo nofolder=$?",
      // There in the verifier's view only (the program's /tmp is its own): tried, then marked.
      "$SR -- /tmp/only-here.sh 2>/dev/null; echo elsewhere=$?",
      // An older bwrap (its version as looked up once per verifier): the marked way, every time.
      "a=$(sh -c 'echo $$'); $SR --timeout 9 -- true; b=$(sh -c 'echo $$')",
      "echo 'bubblewrap 0.4.0' > /tmp/.sealed-run-bwrap-version",
      "c=$(sh -c 'echo $$'); $SR --timeout 9 -- true; rc=$?; d=$(sh -c 'echo $$')",
      // timeout's own fork (of bwrap) and the marker's removal: the launcher replaces itself.
      'echo "old-rc=$rc more-processes=$(( (d - c) - (b - a) ))"',
    ].join("\n");
    const r = await sandbox.exec(script, verifier(true));
    expect(r.stdout.trim().split("\n")).toEqual([
      "exit=7",
      "from-file",
      "piped",
      "frac=124",
      "killed=124",
      "same-fds",
      "missing=127 0",
      "nofolder=126",
      "elsewhere=127",
      "old-rc=0 more-processes=2",
    ]);
  });

  it("leaves the grader room: its program dies first when memory runs out, and the verifier's /tmp holds half of memory_mb", async () => {
    // Under cgroups the grader, its program and the files staged in the verifier's /tmp share
    // memory_mb: a program that filled it with an output folder got the grader killed, then the
    // fallback that writes zeros (a grading error of the agent's choosing).
    const script = [
      "SR=/longhaul/kit/sealed-run",
      `$SR -- sh -c 'cat /proc/self/oom_score_adj'`,
      "cat /proc/self/oom_score_adj",
      "df -k --output=size /tmp | tail -1",
    ].join("\n");
    const r = await sandbox.exec(script, verifier(true));
    const [program, grader, tmpKb] = r.stdout.trim().split("\n");
    expect(program, "the program's oom_score_adj").toBe("1000");
    expect(grader, "the grader's own is left alone").not.toBe("1000");
    expect(Number(tmpKb?.trim()), "size of the verifier's /tmp in KiB (memory_mb = 512)").toBe(256 * 1024);
  });

  it("starts nothing past LONGHAUL_RUN_DEADLINE and cuts --timeout to the time left", async () => {
    const script = [
      "SR=/longhaul/kit/sealed-run",
      "rm -f /tmp/ran",
      // Past the deadline: not started at all (the program would have left /tmp/ran behind).
      "LONGHAUL_RUN_DEADLINE=$((EPOCHSECONDS - 1)) $SR --timeout 50 -- sh -c 'echo x > /tmp/ran'; echo past-rc=$?",
      "[ -e /tmp/ran ] && echo ran || echo not-started",
      // Two seconds left and a 100 s limit: killed after about two seconds.
      "t0=$EPOCHSECONDS; LONGHAUL_RUN_DEADLINE=$((EPOCHSECONDS + 2)) $SR --timeout 100 -- sleep 60; echo near-rc=$? took=$((EPOCHSECONDS - t0))",
      // A limit shorter than the time left is kept.
      "LONGHAUL_RUN_DEADLINE=$((EPOCHSECONDS + 500)) $SR --timeout 1 -- sleep 60; echo short-rc=$?",
      "LONGHAUL_RUN_DEADLINE=soon $SR -- true; echo bad-rc=$?",
      // A fraction below the time left is kept; a limit that is not seconds is refused.
      "LONGHAUL_RUN_DEADLINE=$((EPOCHSECONDS + 500)) $SR --timeout .5 -- sleep 60; echo frac-rc=$?",
      "LONGHAUL_RUN_DEADLINE=$((EPOCHSECONDS + 500)) $SR --timeout 1.2.3 -- true; echo badt-rc=$?",
      "$SR --timeout '' -- true; echo empty-rc=$?",
    ].join("\n");
    const r = await sandbox.exec(script, verifier(true));
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toBe("past-rc=124");
    expect(lines[1]).toBe("not-started");
    expect(r.stderr).toMatch(/sealed-run: not started: the time for candidate programs ran out/);
    expect(lines[2]).toMatch(/^near-rc=124 took=[1-4]$/);
    expect(lines[3]).toBe("short-rc=124");
    expect(lines[4]).toBe("bad-rc=125");
    expect(r.stderr).toMatch(/LONGHAUL_RUN_DEADLINE=soon is not whole Unix seconds/);
    expect(lines[5]).toBe("frac-rc=124");
    expect(lines[6]).toBe("badt-rc=125");
    expect(r.stderr).toMatch(/--timeout 1\.2\.3 is not a number of seconds/);
    expect(lines[7]).toBe("empty-rc=125");
    expect(r.stderr).toMatch(/sealed-run: --timeout needs seconds/);
  });

  it("takes its program with it when the call itself is killed, with or without a limit", async () => {
    // A grader's stall watchdog kills the call it started (Popen.kill on sealed-run); the
    // program must not outlive it holding the grader's pipes until its --timeout.
    const script = [
      "SR=/longhaul/kit/sealed-run",
      'for t in "" "--timeout 100"; do',
      "  $SR $t -- sh -c 'sleep 419' & p=$!",
      "  sleep 1; kill -9 $p; wait $p 2>/dev/null; sleep 0.5",
      "  n=0; for f in /proc/[0-9]*/cmdline; do [ \"$(tr '\\0' ' ' < $f 2>/dev/null)\" = 'sleep 419 ' ] && n=$((n+1)); done",
      '  echo "left=$n"',
      "done",
    ].join("\n");
    const r = await sandbox.exec(script, verifier(true));
    expect(r.stdout.trim().split("\n")).toEqual(["left=0", "left=0"]);
  });

  it("fails loudly, never unsealed, when the nested sandbox cannot be made", async () => {
    const refused = /sealed-run: could not create the nested sandbox.*refusing to run unsealed/;
    // On every host: a bind bwrap cannot make (the workdir it shows is missing).
    const broken = await sandbox.exec(
      "LONGHAUL_WORKDIR=/app/missing /longhaul/kit/sealed-run -- sh -c 'echo ran-unsealed'; echo rc=$?",
      verifier(true),
    );
    expect(broken.stdout).toBe("rc=125\n");
    expect(broken.stderr).toMatch(refused);
    // Without nestedSandbox, under cgroup limits the exec is root of a user namespace, which may
    // not hand uid 0 on to a nested one: refused. Under the rlimit fallback (no writable cgroups)
    // it is an unprivileged host uid, whose nested bwrap maps that uid: nesting works, and the
    // program runs sealed all the same.
    const r = await sandbox.exec(
      "/longhaul/kit/sealed-run -- sh -c 'test -e /tests/grade.py && echo unsealed || echo sealed'; echo rc=$?",
      verifier(false),
    );
    expect((sandbox as BwrapSandbox).limitMode).toBe(cgroupsWritable() ? "cgroup" : "rlimit");
    if (cgroupsWritable()) {
      expect(r.stdout).toBe("rc=125\n");
      expect(r.stderr).toMatch(refused);
    } else {
      expect(r.stdout).toBe("sealed\nrc=0\n");
    }
  });
});
