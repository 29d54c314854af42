import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../runner/helpers.js";
import { startCli } from "../support/cli-process.js";
import {
  type LoopbackLlm,
  type RecordedRequest,
  reply,
  type ScriptedReply,
  startLoopbackLlm,
} from "../support/loopback-llm.js";
import { REAL_KEY, readTrajectory } from "./installed-e2e.js";

/**
 * The commands a user types: `longhaul run tasks/meter-billing --agent claude-code --model
 * anthropic:NAME` (and `--agent codex --model openai:NAME`), on a bundled task (an image task,
 * run by bwrap over its image) against the loopback server. The scripted model writes the task's
 * reference program through the agent's own tools, so the hidden stress cases (not a fixture's
 * single check) decide R; the report then shows the trial's tokens and cost, and the trajectory
 * reads as the viewer reads it.
 */
const ROOT = resolve(import.meta.dirname, "../..");
const TASK = join(ROOT, "tasks", "meter-billing");
const PROGRAM = readFileSync(join(TASK, "solution", "bill.py"), "utf8");
const USAGE = { input: 2000, output: 1500, cached: 500 };
let llm: LoopbackLlm;

/** Claude Code: one Write call, then the answer. Codex: one exec_command call, then the answer. */
function script(req: RecordedRequest): ScriptedReply {
  if (req.format === "anthropic") {
    if (!Array.isArray(req.body.tools) || req.body.tools.length === 0) return reply.text("ok");
    if (JSON.stringify(req.body.messages ?? []).includes('"type":"tool_result"'))
      return reply.text("bill.py is written.", USAGE);
    return reply.tools(
      [{ name: "Write", arguments: { file_path: "/app/bill.py", content: PROGRAM }, id: "toolu_w" }],
      USAGE,
    );
  }
  if (JSON.stringify(req.body.input ?? []).includes('"function_call_output"'))
    return reply.text("bill.py is written.", USAGE);
  const cmd = `echo ${Buffer.from(PROGRAM).toString("base64")} | base64 -d > /app/bill.py`;
  return reply.tools([{ name: "exec_command", arguments: { cmd }, id: "call_w" }], USAGE);
}

beforeAll(async () => {
  llm = await startLoopbackLlm();
  llm.setFallback(script);
});
afterAll(async () => {
  await llm?.close();
});

async function runBundled(
  agent: string,
  model: string,
  tool: string,
  mainCalls: (r: RecordedRequest) => boolean,
) {
  const jobs = tempDir("installed-bundled");
  // Prices for the made-up model names come from a config file, as a user's would.
  const config = join(jobs, "longhaul.config.json");
  writeFileSync(
    config,
    JSON.stringify({ pricing: { [model]: { input: 3, output: 15, cached_input: 0.3 } } }),
  );
  const env = { ANTHROPIC_API_KEY: REAL_KEY, OPENAI_API_KEY: REAL_KEY };
  const job = `${agent}-bundled`;
  const before = llm.requests.length;
  const run = startCli(
    ["--config", config, "run", TASK, "--agent", agent, "--model", model, "--base-url", llm.url].concat([
      "--jobs-dir",
      jobs,
      "--job",
      job,
      // A fixed master seed: the hidden cases are the same every run.
      "--seed",
      "20261202",
      "--json",
    ]),
    env,
  );
  expect(await run.exited, run.stderr()).toBe(0);
  const out = JSON.parse(run.stdout()) as { trials: { trial_id: string; outcome: string; reward: number }[] };
  expect(out.trials).toHaveLength(1);
  const trial = out.trials[0];
  expect(trial).toMatchObject({ outcome: "completed", reward: 1 });

  const report = startCli(["--config", config, "report", job, "--jobs-dir", jobs, "--format", "json"], env);
  expect(await report.exited, report.stderr()).toBe(0);
  const doc = JSON.parse(report.stdout()) as {
    groups: { label: string; usage: { meanTokens: number; meanCost: number | null; costUnknown: number } }[];
  };
  const group = doc.groups[0];
  expect(group?.label).toBe(`${agent} / ${model}`);
  expect(group?.usage.costUnknown).toBe(0);
  // Two main-loop calls of 2000 in + 1500 out each, as the loopback server reported them.
  const calls = llm.requests.slice(before).filter(mainCalls).length;
  expect(calls).toBe(2);
  expect(group?.usage.meanTokens).toBeGreaterThanOrEqual(calls * 3500);
  // 2 × (1500 cached-free input at $3, 500 cached at $0.3, 1500 output at $15) per million tokens.
  expect(group?.usage.meanCost).toBeCloseTo((calls * (1500 * 3 + 500 * 0.3 + 1500 * 15)) / 1e6, 6);

  const t = readTrajectory(join(jobs, job, trial?.trial_id ?? ""));
  expect(t.steps.flatMap((s) => s.tool_calls ?? []).map((c) => c.function_name)).toEqual([tool]);
}

describe("installed agents on a bundled task from the command line", () => {
  it("claude-code reaches R = 1.0, with tokens and cost in the report and a trajectory", async () => {
    await runBundled("claude-code", "anthropic:claude-bundled", "Write", (r) => Array.isArray(r.body.tools));
  }, 300_000);

  it("codex reaches R = 1.0, with tokens and cost in the report and a trajectory", async () => {
    await runBundled("codex", "openai:gpt-bundled", "exec_command", (r) => r.format === "responses");
  }, 300_000);
});
