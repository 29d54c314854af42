import { existsSync, lstatSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
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

  it("walks names that are not UTF-8 as bytes, and removes links it cannot follow by name", () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-links-"));
    const odd = Buffer.from([0x64, 0xff]); // "d" then a byte that is not UTF-8
    const at = (...parts: Buffer[]): Buffer => Buffer.concat([Buffer.from(`${dir}/`), ...parts]);
    mkdirSync(at(odd));
    writeFileSync(at(odd, Buffer.from("/kept.txt")), "agent's file\n");
    // A check of /app/out/x would read /tests/expected.txt through the folder with the odd name.
    symlinkSync("/tests/expected.txt", at(odd, Buffer.from("/x")));
    symlinkSync(odd, join(dir, "out"));
    const removed = removeVerifierLinks(sandboxOver(dir), "/app").sort();
    expect(removed).toEqual(["d\ufffd/x", "out"]);
    expect(lstatSync(at(odd, Buffer.from("/x")), { throwIfNoEntry: false })).toBeUndefined();
    expect(lstatSync(at(odd, Buffer.from("/kept.txt"))).isFile()).toBe(true);
  });
});
