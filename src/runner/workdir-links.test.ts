import { existsSync, lstatSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../sandbox/types.js";
import { removeVerifierLinks } from "./workdir-links.js";

/** A sandbox whose /app is kept on the host at `dir` (the rest is the read-only system). */
function sandboxOver(dir: string): Sandbox {
  const hostPathOf = (p: string): string | null =>
    p === "/app" ? dir : p.startsWith("/app/") ? join(dir, p.slice("/app/".length)) : null;
  return { hostPathOf } as unknown as Sandbox;
}

describe("removeVerifierLinks", () => {
  it("removes links into verifier-only places, keeps every other link", () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-links-"));
    mkdirSync(join(dir, "venv", "bin"), { recursive: true });
    mkdirSync(join(dir, "data"));
    const links: [string, string][] = [
      ["venv/bin/python", "/usr/bin/python3"],
      ["log", "/dev/null"],
      ["latest", "data"],
      ["up", "../app/data"],
      ["answer", "/tests/expected.txt"],
      ["fd", "/dev/fd/3"],
      ["reward", "/logs/verifier/reward.txt"],
      ["t", "../tests"],
      ["chained", "t/expected.txt"],
      ["via-proc", "/proc/1/root/tests/x"],
      ["loop-a", "loop-b"],
      ["loop-b", "loop-a"],
    ];
    for (const [at, to] of links) symlinkSync(to, join(dir, at));
    const removed = removeVerifierLinks(sandboxOver(dir), "/app").sort();
    // A loop is cut at its first link found; the other then dangles and is left.
    const loops = removed.filter((r) => r.startsWith("loop-"));
    expect(loops).toHaveLength(1);
    expect(removed.filter((r) => !r.startsWith("loop-"))).toEqual([
      "answer",
      "chained",
      "fd",
      "reward",
      "t",
      "via-proc",
    ]);
    for (const kept of ["venv/bin/python", "log", "latest", "up"]) {
      expect(lstatSync(join(dir, kept)).isSymbolicLink(), kept).toBe(true);
    }
    expect(existsSync(join(dir, "answer"))).toBe(false);
  });
});
