import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { checkOracle } from "../../src/scale/verify/oracle-trials.js";
import { tempDir } from "../runner/helpers.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

const scratches = (): string[] => readdirSync(tmpdir()).filter((n) => n.startsWith("longhaul-res-oracle-"));

/** Processes whose command line names `path` (a trial's sandbox names its state folder). */
function processesNaming(path: string): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
      if (cmd.includes(path)) out.push(`${pid}: ${cmd.slice(0, 200)}`);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** fn with os.tmpdir() a folder of its own (other test files make such folders meanwhile). */
async function inOwnTmp<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const was = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return await fn();
  } finally {
    if (was === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = was;
  }
}

/**
 * Check (d) starts the child's trial as soon as the child is ready, before the variant with the
 * parent's solution is made. When that variant cannot be made, the check still ends cleanly: the
 * child's trial is stopped and waited for before its folder is removed.
 */
describe("check (d)'s early child trial", () => {
  it("is stopped and waited for when the parent's solution cannot be read", async () => {
    const root = tempDir("res-oracle-early");
    const child = join(root, "child");
    const parent = join(root, "parent");
    cpSync(LEDGER, child, { recursive: true });
    cpSync(LEDGER, parent, { recursive: true });
    rmSync(join(parent, "solution"), { recursive: true });
    const own = join(root, "tmp");
    mkdirSync(own);
    const provider = getSandboxProvider("bwrap");
    const [r, left] = await inOwnTmp(own, async () => {
      const result = await checkOracle({ childDir: child, parentDir: parent, provider });
      const running = processesNaming(own);
      // Anything of the trial still going would show by now (a folder made after the removal).
      await new Promise((r) => setTimeout(r, 1000));
      return [result, [...running, ...scratches(), ...processesNaming(own)]] as const;
    });
    expect(r.status).toBe("fail");
    expect(r.diagnostics.map((d) => d.code)).toEqual(["lineage-mismatch"]);
    expect(r.diagnostics[0]?.message).toMatch(/parent's solution .* cannot be read/);
    // Its scratch folder (the trial's folder inside it) is gone once the check returns, and no
    // process of the trial is left.
    expect(left).toEqual([]);
  }, 60_000);
});
