import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The two example scripts of docs/api.md, run as a user would: copied into a folder of their own
// whose node_modules/longhaul is this package, so `import … from "longhaul"` goes through the
// package's `exports` to the built dist/ (scripts/test.sh builds first), never to src/.

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const EXAMPLES = join(ROOT, "docs", "examples");

let work = "";
let jobs = "";

beforeAll(() => {
  if (!existsSync(join(ROOT, "dist", "index.js")))
    throw new Error("dist/index.js missing: npm run build first");
  work = mkdtempSync(join(tmpdir(), "longhaul-api-"));
  jobs = join(work, "jobs");
  mkdirSync(join(work, "node_modules"));
  symlinkSync(ROOT, join(work, "node_modules", "longhaul"), "dir");
  for (const f of ["run-oracle.mjs", "report-job.mjs"]) copyFileSync(join(EXAMPLES, f), join(work, f));
});

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

async function script(file: string, args: string[]): Promise<string> {
  const r = await run(process.execPath, [file, ...args], { cwd: work, maxBuffer: 16 * 1024 * 1024 });
  return r.stdout;
}

describe("docs/api.md examples against the built package", () => {
  it("the package resolves to dist/ and keeps internals out of reach", async () => {
    const probe = [
      'import * as api from "longhaul";',
      'console.log(import.meta.resolve("longhaul"));',
      'console.log(import.meta.resolve("longhaul/testing"));',
      'console.log(typeof api.runJob, "describeSandboxConformance" in api);',
      'try { import.meta.resolve("longhaul/dist/cli/main.js"); console.log("reachable"); } catch (e) { console.log(e.code); }',
    ].join("\n");
    const r = await run(process.execPath, ["--input-type=module", "-e", probe], { cwd: work });
    const [main, testing, shape, deep] = r.stdout.trim().split("\n");
    expect(main).toMatch(/\/dist\/index\.js$/);
    expect(testing).toMatch(/\/dist\/testing\.js$/);
    expect(shape).toBe("function false");
    expect(deep).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
  });

  it("run-oracle.mjs runs the oracle on two bundled tasks and prints the summary", async () => {
    const out = await script("run-oracle.mjs", [jobs]);
    expect(out).toMatch(/^loaded \d+ bundled tasks; running loan-schedule, log-digest$/m);
    expect(out).toContain("trial loan-schedule oracle completed R=1.000");
    expect(out).toContain("trial log-digest oracle completed R=1.000");
    expect(out).toContain(`job oracle-demo in ${jobs}`);
    expect(out).toContain("pass@1 (R >= 0.95): 2/2, mean R 1.000");
    expect(out).toMatch(/^oracle \/ -\s+2\s+2\/2 \(100\.0%\)/m);
    const result = JSON.parse(readFileSync(join(jobs, "oracle-demo", "result.json"), "utf8")) as {
      status: string;
      planned: number;
      mean_reward: number;
    };
    expect(result).toMatchObject({ status: "finished", planned: 2, mean_reward: 1 });
  });

  it("report-job.mjs reads that job and renders it in a registered format and as Markdown", async () => {
    const out = await script("report-job.mjs", [jobs]);
    expect(out).toContain("formats: table, json, csv, md, html, oneline");
    expect(out).toContain("oracle / -: pass@1 2/2, mean R 1.000");
    expect(out).toContain("# longhaul report");
    expect(out).toMatch(/^\| oracle \/ - · software-engineering \/ log-digest \| 1 \| 1\/1 \(100\.0%\) \|/m);
    expect(out).toMatch(/^\| oracle \/ - · professional-workflows \/ loan-schedule \| 1 \|/m);
  });
});

describe("docs/api.md", () => {
  it("shows both example scripts exactly as stored", () => {
    const page = readFileSync(join(ROOT, "docs", "api.md"), "utf8");
    for (const f of ["run-oracle.mjs", "report-job.mjs"]) {
      expect(page).toContain(`\`\`\`js\n${readFileSync(join(EXAMPLES, f), "utf8")}\`\`\`\n`);
    }
  });
});
