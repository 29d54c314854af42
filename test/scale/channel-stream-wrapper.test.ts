import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ChannelDecl, channelKitPath, channelStep } from "../../src/scale/channel/steps.js";
import { tempDir } from "../runner/helpers.js";

const root = tempDir("res-stream-wrapper");
const PYTHON = "/usr/bin/python3";
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An interactive program: it answers every line before it reads the next, three ways of reading. */
const BOT = [
  "import os, select, sys",
  "first = sys.stdin.readline()",
  'print("1:" + first.strip()[::-1], flush=True)',
  "second = input()",
  'print("2:" + second.upper(), flush=True)',
  "ready, _, _ = select.select([0], [], [], 10)",
  "third = os.read(0, 4096).decode()",
  'print("3:" + third.strip() + ":" + str(bool(ready)), flush=True)',
  "rest = sys.stdin.read()",
  'print("4:" + repr(rest) + ":" + str(os.getpid()), flush=True)',
  "sys.exit(3)",
  "",
].join("\n");

/**
 * Talks to PROGRAM line by line (each answer read before the next line is written: a wrapper that
 * held lines back would hang here, and the timeout says so), each line encoded with the steps.
 */
const DRIVER = [
  "import json, subprocess, sys",
  "sys.path.insert(0, sys.argv[1])",
  "import res_channel as k",
  "steps, program = json.loads(sys.argv[2]), sys.argv[3]",
  "argv = [sys.executable, '-B', program]",
  "if len(sys.argv) > 4:",
  "    # The verifier's side: plain lines into the kit's filter, which encodes them for the program.",
  "    argv = [sys.executable, '-I', '-X', 'importtime', k.__file__, 'stream', sys.argv[4], '--'] + argv",
  "    steps = []",
  "p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)",
  "got = []",
  "for line in [b'alpha beta', b'gamma', b'delta']:",
  "    p.stdin.write(k.encode_line(line, steps) + b'\\n'); p.stdin.flush()",
  "    got.append(p.stdout.readline().decode().strip())",
  "p.stdin.write(k.encode_line(b'x', steps) + b'\\n' + k.encode_line(b'no newline', steps)); p.stdin.close()",
  "last = p.stdout.readline().decode().strip()",
  "# The pid the program saw is the process the grader started: no interpreter in between.",
  "got.append(last.replace(':' + str(p.pid), ':same process'))",
  "code = p.wait(timeout=20)",
  "loaded = [l.split('|')[-1].strip() for l in p.stderr.read().decode().splitlines() if l.startswith('import time:')]",
  "print(json.dumps({'got': got, 'code': code, 'heavy': [m for m in ('json', 'subprocess', 're') if m in loaded]}))",
  "",
].join("\n");

/**
 * A stream channel's reference wrapper decodes standard input in the program's own process (a
 * thread filling a pipe at fd 0) and runs the original there: no second interpreter per call. The
 * program must see what it would see on the decoded stream, however it reads, answer by answer.
 */
describe("the stream channel's wrapper", () => {
  it("gives the program its decoded lines as they come, by sys.stdin, input(), select and os.read", () => {
    const app = join(root, "app");
    mkdirSync(app, { recursive: true });
    const program = join(app, "bot.py");
    writeFileSync(program, BOT);
    const steps = [
      channelStep("line-base64", 1),
      channelStep("line-rotate", 2),
      channelStep("line-reverse", 3),
    ];
    const decl: ChannelDecl = { program, input_index: 1, input_kind: "stream", steps };
    const declPath = join(root, "channel.json");
    writeFileSync(declPath, JSON.stringify(decl));
    const kitDir = join(channelKitPath(), "..");
    // Bare, with no steps: what the program answers on the plain stream.
    const bare = spawnSync(PYTHON, ["-I", "-c", DRIVER, kitDir, "[]", program], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(bare.status, bare.stderr).toBe(0);
    const wrap = spawnSync(PYTHON, ["-I", "-B", channelKitPath(), "wrap", program, declPath], {
      encoding: "utf8",
    });
    expect(wrap.status, wrap.stderr).toBe(0);
    const wrapped = spawnSync(PYTHON, ["-I", "-c", DRIVER, kitDir, JSON.stringify(steps), program], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(wrapped.status, wrapped.stderr).toBe(0);
    const want = {
      got: ["1:ateb ahpla", "2:GAMMA", "3:delta:True", "4:'x\\nno newline':same process"],
      code: 3,
      heavy: [],
    };
    expect(JSON.parse(bare.stdout)).toEqual(want);
    expect(JSON.parse(wrapped.stdout)).toEqual(want);
    // Through the verifier's filter as well (a process between: not the same pid), which loads
    // neither json nor subprocess (nor re) for its once-per-call start.
    const filtered = spawnSync(PYTHON, ["-I", "-c", DRIVER, kitDir, "[]", program, declPath], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(filtered.status, filtered.stderr).toBe(0);
    const seen = JSON.parse(filtered.stdout) as typeof want;
    expect(seen.got.slice(0, 3)).toEqual(want.got.slice(0, 3));
    expect(seen.got[3]).toMatch(/^4:'x\\nno newline':\d+$/);
    expect(seen.code).toBe(3);
    expect(seen.heavy).toEqual([]);
  });

  it("gives the program behind the verifier's filter SIGPIPE at its default, as subprocess did", () => {
    const declPath = join(root, "plain.json");
    writeFileSync(
      declPath,
      JSON.stringify({ program: "/x", input_index: 1, input_kind: "stream", steps: [] }),
    );
    // SigIgn is the mask of ignored signals; SIGPIPE (13) is its bit 12. Python ignores it itself.
    const r = spawnSync(
      PYTHON,
      [channelKitPath(), "stream", declPath, "--", "sh", "-c", "grep SigIgn /proc/self/status"],
      { encoding: "utf8", input: "" },
    );
    expect(r.status, r.stderr).toBe(0);
    const mask = BigInt(`0x${r.stdout.trim().split(/\s+/)[1] ?? ""}`);
    expect(mask & (1n << 12n)).toBe(0n);
  });
});
