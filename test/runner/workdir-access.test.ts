import { execFileSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workdirAccessArgv } from "../../src/runner/workdir-access.js";
import { runHostCommand } from "../../src/sandbox/host-command.js";
import { tempDir } from "./helpers.js";

/** Every entry's mode and change time under DIR, links not followed. */
function modes(dir: string, rel = ""): Map<string, { mode: number; ctimeNs: bigint }> {
  const out = new Map<string, { mode: number; ctimeNs: bigint }>();
  const st = lstatSync(join(dir, rel), { bigint: true });
  out.set(rel || ".", { mode: Number(st.mode), ctimeNs: st.ctimeNs });
  if (st.isDirectory())
    for (const n of readdirSync(join(dir, rel)).sort())
      for (const e of modes(dir, join(rel, n))) out.set(...e);
  return out;
}

/** A workdir an agent locked in every way a mode can: folders and files of every kind. */
function locked(dir: string): void {
  mkdirSync(join(dir, "a/b/c"), { recursive: true });
  mkdirSync(join(dir, "open"));
  writeFileSync(join(dir, "open/fine.txt"), "x");
  const files: [string, number][] = [
    ["a/none", 0o000],
    ["a/group-exec", 0o010],
    ["a/b/read-only", 0o444],
    ["a/b/c/owner-exec-only", 0o100],
    ["a/b/c/all", 0o777],
    ["plain", 0o644],
  ];
  for (const [f, m] of files) {
    writeFileSync(join(dir, f), f);
    chmodSync(join(dir, f), m);
  }
  execFileSync("mkfifo", ["-m", "000", join(dir, "a/fifo")]);
  symlinkSync("/etc/passwd", join(dir, "a/link"));
  chmodSync(join(dir, "a/b/c"), 0o000);
  chmodSync(join(dir, "a/b"), 0o300);
  chmodSync(join(dir, "a"), 0o111);
}

describe("restoring the workdir's access before the verifier", () => {
  it("gives every entry the mode chmod -R u+rwX gives it", async () => {
    const root = tempDir("workdir-access");
    locked(join(root, "w"));
    locked(join(root, "reference"));
    execFileSync("chmod", ["-R", "u+rwX", "--", join(root, "reference")]);
    await runHostCommand(workdirAccessArgv(join(root, "w")), { timeoutMs: 30_000, capture: false });
    const got = new Map([...modes(join(root, "w"))].map(([k, v]) => [k, v.mode.toString(8)]));
    const want = new Map([...modes(join(root, "reference"))].map(([k, v]) => [k, v.mode.toString(8)]));
    expect(got).toEqual(want);
    expect(got.get("a/b/c")).toBe("40700");
    expect(got.get("a/group-exec")).toBe("100710");
  });

  it("changes nothing in a workdir whose owner already has access (no copy-up over an image)", async () => {
    const root = tempDir("workdir-access-open");
    const w = join(root, "w");
    mkdirSync(join(w, "src/deep"), { recursive: true });
    writeFileSync(join(w, "src/deep/f.py"), "print(1)\n");
    writeFileSync(join(w, "run.sh"), "#!/bin/sh\n");
    chmodSync(join(w, "run.sh"), 0o755);
    symlinkSync("src/deep/f.py", join(w, "f.py"));
    const before = modes(w);
    await new Promise((r) => setTimeout(r, 20));
    await runHostCommand(workdirAccessArgv(w), { timeoutMs: 30_000, capture: false });
    // chmod sets a file's change time even when its mode stays the same.
    expect(modes(w)).toEqual(before);
  });
});
