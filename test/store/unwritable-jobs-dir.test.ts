import { execFile } from "node:child_process";
import { chmodSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { JobStore } from "../../src/store/index.js";
import { tempDir } from "../runner/helpers.js";

const ROOT = resolve(import.meta.dirname, "../..");
const STORE = pathToFileURL(join(ROOT, "src/store/index.ts")).href;

/** Opens a store in a child process; as root, as nobody (root may write any folder). */
function openIn(jobsDir: string): Promise<string> {
  const code = `import { JobStore } from ${JSON.stringify(STORE)};
try { const s = await JobStore.open(${JSON.stringify(jobsDir)}); await s.close(); console.log("opened"); }
catch (e) { console.log(e.constructor.name + ": " + e.message); }`;
  const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  return new Promise((res, rej) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", code],
      { cwd: ROOT, env: { ...process.env, HOME: "/tmp" }, ...asNobody },
      (err, stdout, stderr) => (err ? rej(new Error(`${err.message}\n${stderr}`)) : res(stdout.trim())),
    );
  });
}

describe("a jobs dir that cannot be written", () => {
  it("is named as such, never called a damaged index to move aside", async () => {
    const root = tempDir("unwritable");
    chmodSync(root, 0o755);
    const jobs = join(root, "jobs");
    mkdirSync(jobs);
    const store = await JobStore.open(jobs);
    await store.close();
    chmodSync(jobs, 0o555);
    try {
      expect(await openIn(jobs)).toBe(
        `UserError: cannot open the index ${jobs}/longhaul.db: the jobs dir is not writable (${jobs}: permission denied)`,
      );
      expect(await openIn(join(jobs, "sub"))).toBe(
        `UserError: cannot create the jobs dir ${jobs}/sub: ${jobs}/sub: permission denied`,
      );
    } finally {
      chmodSync(jobs, 0o755);
    }
  }, 30_000);
});
