import { spawnSync } from "node:child_process";
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
  it("removes links into verifier-only places, keeps every other link", async () => {
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
    const removed = (await removeVerifierLinks(sandboxOver(dir), "/app")).sort();
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

  it("removes links into the verifier's fresh /tmp and /root and to devices but /dev/null, and FIFOs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-links-"));
    // The agent's own /tmp, on the host: it holds nothing by the names the links use, which is
    // what the old walk went by; the verifier's /tmp is another, fresh folder it fills itself.
    const agentTmp = mkdtempSync(join(tmpdir(), "longhaul-test-links-tmp-"));
    const sandbox = {
      hostPathOf: (p: string): string | null =>
        p === "/tmp"
          ? agentTmp
          : p.startsWith("/tmp/")
            ? join(agentTmp, p.slice(5))
            : (sandboxOver(dir).hostPathOf?.(p) ?? null),
    } as unknown as Sandbox;
    mkdirSync(join(dir, "sub"));
    const links: [string, string][] = [
      ["scratch", "/tmp/expected.txt"],
      ["t", "/tmp"],
      ["via-t", "t/expected.txt"],
      ["home", "/root/.cache/check/expected.txt"],
      ["ptmx", "/dev/ptmx"],
      ["zero", "/dev/zero"],
      ["shm", "/dev/shm/x"],
      ["dev", "/dev"],
      ["log", "/dev/null"],
      ["venv-python", "/usr/bin/python3"],
    ];
    for (const [at, to] of links) symlinkSync(to, join(dir, at));
    sh(dir, "mkfifo out.txt sub/pipe");
    const removed = (await removeVerifierLinks(sandbox, "/app", ["/root", "/tmp"])).sort();
    expect(removed).toEqual([
      "dev",
      "home",
      "out.txt (a FIFO)",
      "ptmx",
      "scratch",
      "shm",
      "sub/pipe (a FIFO)",
      "t",
      "via-t",
      "zero",
    ]);
    for (const kept of ["log", "venv-python"])
      expect(lstatSync(join(dir, kept)).isSymbolicLink(), kept).toBe(true);
    expect(existsSync(join(dir, "out.txt"))).toBe(false);
  });

  it("walks names that are not UTF-8 as bytes, and removes links it cannot follow by name", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-links-"));
    const odd = Buffer.from([0x64, 0xff]); // "d" then a byte that is not UTF-8
    const at = (...parts: Buffer[]): Buffer => Buffer.concat([Buffer.from(`${dir}/`), ...parts]);
    mkdirSync(at(odd));
    writeFileSync(at(odd, Buffer.from("/kept.txt")), "agent's file\n");
    // A check of /app/out/x would read /tests/expected.txt through the folder with the odd name.
    symlinkSync("/tests/expected.txt", at(odd, Buffer.from("/x")));
    symlinkSync(odd, join(dir, "out"));
    const removed = (await removeVerifierLinks(sandboxOver(dir), "/app")).sort();
    expect(removed).toEqual(["d\ufffd/x", "out"]);
    expect(lstatSync(at(odd, Buffer.from("/x")), { throwIfNoEntry: false })).toBeUndefined();
    expect(lstatSync(at(odd, Buffer.from("/kept.txt"))).isFile()).toBe(true);
  });
});

/** Runs bash in `dir` (relative names reach depths no absolute path can name). */
function sh(dir: string, script: string): void {
  const r = spawnSync("bash", ["-c", script], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`bash failed: ${r.stderr}`);
}

describe("removeVerifierLinks on trees an agent shapes against the walk", () => {
  it("a link resolved through a regular file (out.txt/x) is judged, not thrown on", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-links-"));
    writeFileSync(join(dir, "out.txt"), "agent's file\n");
    symlinkSync("out.txt/x", join(dir, "through-file"));
    symlinkSync("/tests/expected.txt", join(dir, "answer"));
    expect((await removeVerifierLinks(sandboxOver(dir), "/app")).sort()).toEqual(["answer"]);
    expect(lstatSync(join(dir, "through-file")).isSymbolicLink()).toBe(true);
  });

  it("removes a link in a folder deeper than the host can name, without throwing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-links-"));
    const d = "d".repeat(200);
    // 25 levels of 200 bytes: 5,000 bytes, past PATH_MAX; made by relative names, as an agent can.
    // At level 19 (still nameable from the host) a link whose relative target goes 6 levels down,
    // to the link at the bottom; and a shallow link to it. The kernel resolves both in the sandbox.
    sh(
      dir,
      `mkdir keep; echo kept > keep/file; for i in $(seq 25); do mkdir ${d}; cd ${d}; [ $i = 19 ] && ln -s ${Array(6).fill(d).join("/")}/answer hop; done; ln -s /tests/expected.txt answer; echo x > leaf`,
    );
    symlinkSync(`${Array(19).fill(d).join("/")}/hop`, join(dir, "into-deep"));
    const removed = await removeVerifierLinks(sandboxOver(dir), "/app");
    expect(
      removed.some((r) => r.startsWith(`${d}/`) && r.endsWith("removed whole)")),
      removed.join("\n"),
    ).toBe(true);
    expect(removed).toContain("into-deep");
    // Nothing left of the deep tree that still holds the link; the rest of the workdir kept.
    const left = spawnSync("find", [dir, "-type", "l"], { encoding: "utf8" });
    expect(left.stdout.trim()).toBe("");
    expect(lstatSync(join(dir, "keep", "file")).isFile()).toBe(true);
    spawnSync("rm", ["-rf", dir]);
  });

  it("checks every link however many files come before it in the walk", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-links-"));
    // Whatever order they are listed in, a folder beside 200,001 files was past the old walk's
    // bound (200,000 entries): listed after the break it was never queued, before it never reached.
    mkdirSync(join(dir, "out"));
    symlinkSync("/tests/expected.txt", join(dir, "out", "answer.txt"));
    sh(dir, "seq 200001 | xargs touch");
    expect(await removeVerifierLinks(sandboxOver(dir), "/app")).toEqual(["out/answer.txt"]);
    expect(existsSync(join(dir, "out", "answer.txt"))).toBe(false);
    spawnSync("rm", ["-rf", dir]);
  }, 120_000);
});
