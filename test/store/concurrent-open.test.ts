import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { JobStore } from "../../src/store/index.js";

const run = promisify(execFile);
const STORE = pathToFileURL(resolve(import.meta.dirname, "../../src/store/index.ts")).href;

describe("a new jobs folder opened by several processes at once", () => {
  it("is migrated once, and every process opens it", { timeout: 60_000 }, async () => {
    const jobs = mkdtempSync(join(tmpdir(), "longhaul-test-open-"));
    const code = `import { JobStore } from ${JSON.stringify(STORE)};
const s = await JobStore.open(${JSON.stringify(jobs)});
console.log((await s.listJobs()).length);
await s.close();`;
    // Started together: each finds a fresh file with no migration applied.
    const outs = await Promise.all(
      Array.from({ length: 4 }, () =>
        run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code]),
      ),
    );
    expect(outs.map((o) => o.stdout.trim())).toEqual(["0", "0", "0", "0"]);
    const store = await JobStore.open(jobs);
    expect(await store.listJobs()).toEqual([]);
    await store.close();
  });
});
