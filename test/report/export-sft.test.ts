import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { registerExportCommand } from "../../src/cli/commands/export.js";
import { exitCodeFor } from "../../src/cli/run-cli.js";
import type { TrialResult } from "../../src/core/index.js";
import type { SftRecord } from "../../src/report/export-sft.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { JobStore } from "../../src/store/index.js";
import { loadTask } from "../../src/task/index.js";
import { fixtureTask, jobConfig, tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";
import { type LoopbackLlm, type RecordedRequest, reply, startLoopbackLlm } from "../support/loopback-llm.js";
import { parseSftFile } from "../support/sft-schema.js";

/**
 * One real job: the tools agent (a scripted model behind a real HTTP server) on the `hello`
 * fixture and on a depth-1 RES child of ledger-report, in real bwrap sandboxes with the real
 * verifiers. The model solves the child with its reference solution and only half of `hello`.
 */
const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");
const JOB = "sft-job";
const HELLO_PART = "awk '{s+=$1} END {print s}' /app/numbers.txt > /app/sum.txt";

let llm: LoopbackLlm;
const dir = tempDir("export-sft");
const jobsDir = join(dir, "jobs");
let childName = "";
let trials: TrialResult[] = [];

function lastTurnHadTools(req: RecordedRequest): boolean {
  const msgs = (req.body.messages ?? []) as { role: string }[];
  return msgs.some((m) => m.role === "tool");
}

beforeAll(async () => {
  llm = await startLoopbackLlm();
  const provider = getSandboxProvider("bwrap");
  const lineage = await scaleTask({
    taskDir: LEDGER,
    outDir: join(dir, "lineage"),
    depth: 1,
    children: 1,
    library: "basic",
    mode: "recursive",
    seed: 7,
    provider,
    trials: false,
  });
  const node = lineage.nodes.find((n) => n.depth === 1 && n.status === "approved");
  if (!node?.dir) throw new Error(`no approved child: ${JSON.stringify(lineage.nodes.map((n) => n.status))}`);
  const child = await loadTask(join(lineage.outDir, node.dir));
  childName = child.name;
  // The child's solution runs its parent's from beside it: both go to /tmp.
  const writes = ["solve.sh", "res-parent-solve.sh"].map((f) => ({
    name: "write_file",
    arguments: { path: `/tmp/${f}`, content: readFileSync(join(child.dir, "solution", f), "utf8") },
  }));
  // Each trial's first turn acts, the second finishes; which task it is shows in the instruction.
  llm.setFallback((req) => {
    if (lastTurnHadTools(req)) return reply.tools([{ name: "finish", arguments: { summary: "done" } }]);
    const isChild = JSON.stringify(req.body.messages).includes("Ledger report");
    return isChild
      ? reply.tools([...writes, { name: "exec", arguments: { command: "bash /tmp/solve.sh" } }])
      : reply.tools([{ name: "exec", arguments: { command: HELLO_PART } }]);
  });
  const hello = await fixtureTask("hello");
  const store = await JobStore.open(jobsDir);
  try {
    const out = await runJob({
      store,
      config: jobConfig([hello, child], {
        job_id: JOB,
        agents: ["tools"],
        models: ["openai-compatible:loop-model"],
        agent_options: { base_url: llm.url },
        timeout_multiplier: 4,
        retries: 1,
      }),
      tasks: [hello, child],
      provider,
      resume: false,
    });
    trials = out.trials;
  } finally {
    await store.close();
  }
}, 180_000);
afterAll(async () => {
  await llm.close();
});

/** `longhaul export ...` in this process, with the exit code the real CLI would give. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const so = vi.spyOn(process.stdout, "write").mockImplementation((s) => out.push(String(s)) > 0);
  const se = vi.spyOn(process.stderr, "write").mockImplementation((s) => err.push(String(s)) > 0);
  let code = 0;
  try {
    const program = new Command("longhaul").exitOverride();
    registerExportCommand(program);
    await program.parseAsync(["node", "longhaul", "export", ...args]);
  } catch (e) {
    code = exitCodeFor(e);
  } finally {
    so.mockRestore();
    se.mockRestore();
  }
  return { code, stdout: out.join(""), stderr: err.join("") };
}

const records = (file: string): SftRecord[] =>
  readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as SftRecord);

describe("longhaul export sft on a real job", { timeout: 60_000 }, () => {
  it("ran the job as scripted: the child solved, hello half done", () => {
    const byTask = Object.fromEntries(trials.map((t) => [t.task.name, t]));
    expect(byTask[childName]?.reward).toBe(1);
    expect(byTask.hello?.reward).toBeGreaterThan(0);
    expect(byTask.hello?.reward).toBeLessThan(0.95);
  });

  it("exports only resolved trials by default, with lineage depth 1 for the RES child", async () => {
    const file = join(dir, "default.jsonl");
    const r = await cli(["sft", "--jobs-dir", jobsDir, "--out", file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(file);
    expect(r.stdout).toMatch(/1 of 2 trial\(s\) of job sft-job exported; skipped: 1 R below 0\.95/);
    const [rec, ...rest] = records(file);
    expect(rest).toEqual([]);
    expect(parseSftFile(readFileSync(file, "utf8"), "openai")).toHaveLength(1);
    const child = trials.find((t) => t.task.name === childName);
    expect(rec?.metadata).toMatchObject({
      job_id: JOB,
      trial_id: child?.trial_id,
      task: childName,
      agent: "tools",
      model: "openai-compatible:loop-model",
      reward: 1,
      passed: true,
      lineage_depth: 1,
      seed: child?.seed,
    });
    const msgs = rec?.messages ?? [];
    expect(msgs.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "tool",
      "assistant",
      "tool",
    ]);
    expect(msgs[1]?.content).toContain("Ledger report");
    const args = msgs[2]?.tool_calls?.[2]?.function.arguments;
    expect(typeof args).toBe("string");
    expect(JSON.parse(String(args))).toEqual({ command: "bash /tmp/solve.sh" });
    expect(msgs[5]).toMatchObject({ role: "tool", tool_call_id: msgs[2]?.tool_calls?.[2]?.id });
    expect(msgs[5]?.content).toMatch(/^exit code 0/);
  });

  it("filters by --min-reward and --include-failed; hf keeps arguments as objects", async () => {
    const low = join(dir, "low.jsonl");
    expect((await cli(["sft", JOB, "--jobs-dir", jobsDir, "--out", low, "--min-reward", "0.1"])).code).toBe(
      0,
    );
    const recs = records(low);
    expect(recs.map((r) => [r.metadata.task, r.metadata.lineage_depth, r.metadata.passed]).sort()).toEqual(
      [
        ["hello", 0, false],
        [childName, 1, true],
      ].sort(),
    );
    const hello = recs.find((r) => r.metadata.task === "hello");
    expect(hello?.metadata.reward).toBe(trials.find((t) => t.task.name === "hello")?.reward);

    const high = join(dir, "high.jsonl");
    const onlyPerfect = await cli(["sft", JOB, "--jobs-dir", jobsDir, "--out", high, "--min-reward", "1.0"]);
    expect(records(high).map((r) => r.metadata.task)).toEqual([childName]);
    expect(onlyPerfect.stdout).toMatch(/1 of 2/);

    const hf = join(dir, "hf.jsonl");
    const r = await cli([
      "sft",
      JOB,
      "--jobs-dir",
      jobsDir,
      "--out",
      hf,
      "--format",
      "hf",
      "--include-failed",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const hfRecs = records(hf);
    expect(hfRecs).toHaveLength(2);
    expect(parseSftFile(readFileSync(hf, "utf8"), "hf")).toHaveLength(2);
    expect(parseSftFile(readFileSync(low, "utf8"), "openai")).toHaveLength(2);
    const call = hfRecs.find((x) => x.metadata.task === "hello")?.messages[2]?.tool_calls?.[0];
    expect(call).toMatchObject({
      type: "function",
      function: { name: "exec", arguments: { command: HELLO_PART } },
    });
    expect(hfRecs.every((x) => x.messages.every((m) => typeof m.content === "string"))).toBe(true);
  });

  it("refuses to overwrite an existing --out without --force, and leaves no temporary file", async () => {
    const file = join(dir, "kept.jsonl");
    writeFileSync(file, "precious\n");
    const r = await cli(["sft", JOB, "--jobs-dir", jobsDir, "--out", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/kept\.jsonl exists; pass --force/);
    expect(readFileSync(file, "utf8")).toBe("precious\n");
    const forced = await cli(["sft", JOB, "--jobs-dir", jobsDir, "--out", file, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(records(file)).toHaveLength(1);
    expect(readdirSync(dir).filter((f) => f.includes(".tmp-"))).toEqual([]);
  });

  it("names the file and field of a damaged trajectory, and an unknown job (the real CLI, exit 2)", async () => {
    const child = trials.find((t) => t.task.name === childName);
    const trajFile = join(jobsDir, JOB, child?.trial_id ?? "", "agent", "trajectory.json");
    const original = readFileSync(trajFile, "utf8");
    const bad = JSON.parse(original);
    bad.steps[0].source = "robot";
    writeFileSync(trajFile, JSON.stringify(bad));
    const out = join(dir, "never.jsonl");
    try {
      const r = await cli(["sft", JOB, "--jobs-dir", jobsDir, "--out", out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${trajFile}: not an ATIF trajectory: steps.0.source`);
      expect(existsSync(out)).toBe(false);
    } finally {
      writeFileSync(trajFile, original);
    }
    const e = await runCli(["export", "sft", "no-such-job", "--jobs-dir", jobsDir]);
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(/no job named no-such-job/);
  });
});
