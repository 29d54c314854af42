import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type LoopbackLlm,
  type RecordedRequest,
  reply,
  type ScriptedReply,
  startLoopbackLlm,
} from "../support/loopback-llm.js";
import {
  KEY_CHECK_COMMAND,
  REAL_KEY,
  readTrajectory,
  realKeyOnHost,
  runOne,
  SUM_COMMAND,
  SUM_SCRIPT,
} from "./installed-e2e.js";

/**
 * Codex CLI (the real pinned binary, installed into the agent cache on first use) through the
 * runner on the bwrap sandbox with no network: its Responses API calls reach the loopback
 * server through the in-sandbox forwarder, and scripted exec_command calls solve the fixture.
 * (Codex offers its apply_patch tool only to models it knows; for an unknown model name the
 * file edit is an `apply_patch` command sent through exec_command, which Codex intercepts and
 * applies itself, as here.)
 */
let llm: LoopbackLlm;

/** Codex's own file edit: its apply_patch, called through exec_command (Codex runs the patch itself). */
const WRITE_SUM = [
  "apply_patch <<'PATCH'",
  "*** Begin Patch",
  "*** Add File: bin/sum",
  ...SUM_SCRIPT.trimEnd()
    .split("\n")
    .map((l) => `+${l}`),
  "*** End Patch",
  "PATCH",
].join("\n");

function script(req: RecordedRequest): ScriptedReply {
  const usage = { input: 700, output: 30, cached: 100, reasoning: 5 };
  const input = Array.isArray(req.body.input) ? req.body.input : [];
  const results = input.filter((i: { type?: string }) => i?.type === "function_call_output").length;
  const exec = (cmd: string, id: string) =>
    reply.tools([{ name: "exec_command", arguments: { cmd }, id }], usage);
  const steps = [
    exec(SUM_COMMAND, "call_1"),
    exec(WRITE_SUM, "call_2"),
    exec(`chmod +x /app/bin/sum; ${KEY_CHECK_COMMAND}`, "call_3"),
  ];
  return steps[results] ?? reply.text("Done: sum.txt and bin/sum are in place.", usage);
}

/** The output codex sent back for one call. */
function callOutput(req: RecordedRequest | undefined, id: string): string {
  const input = Array.isArray(req?.body.input) ? req.body.input : [];
  const item = input.find(
    (i: { type?: string; call_id?: string }) => i?.type === "function_call_output" && i.call_id === id,
  );
  return typeof item?.output === "string" ? item.output : JSON.stringify(item?.output ?? null);
}

realKeyOnHost("OPENAI_API_KEY");

beforeAll(async () => {
  llm = await startLoopbackLlm();
});
afterAll(async () => {
  await llm?.close();
});

describe("codex through the runner", () => {
  it("solves the fixture to R = 1.0 over the Responses API, never seeing the real key", async () => {
    llm.setFallback(script);
    const { trial, dir } = await runOne("codex", "openai:gpt-loop", "cx", llm.url);
    expect({ outcome: trial.outcome, error: trial.error }).toEqual({ outcome: "completed", error: null });
    expect(trial.reward).toBe(1);
    expect(trial.self_terminated).toBe(true);
    expect(trial.usage.input_tokens).toBe(4 * 700);
    expect(trial.usage.cached_tokens).toBe(4 * 100);
    expect(trial.usage.reasoning_tokens).toBe(4 * 5);
    const calls = llm.requests.filter((r) => r.format === "responses");
    expect(calls.length).toBe(4);
    for (const r of llm.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${REAL_KEY}`);
    }
    // The file edit went through Codex's own apply_patch, not a shell redirect.
    expect(callOutput(calls[2], "call_2")).toMatch(/Success\. Updated the following files:\s+A bin\/sum/);
    const check = callOutput(calls.at(-1), "call_3");
    expect(check).toContain("KEY-CHECK-END");
    expect(check).not.toContain("KEY-FOUND");
    // The rollout became ATIF: the instruction, three exec_command calls with their output.
    const t = readTrajectory(dir);
    expect(t.agent.name).toBe("codex");
    expect(t.final_metrics.extra?.source).toBe("codex rollout");
    const made = t.steps.flatMap((s) => s.tool_calls ?? []);
    expect(made.map((c) => c.function_name)).toEqual(["exec_command", "exec_command", "exec_command"]);
    expect(made[0]?.arguments.cmd).toBe(SUM_COMMAND);
    expect(t.steps.filter((s) => (s.observation?.results.length ?? 0) > 0).length).toBe(3);
    expect(t.steps.some((s) => s.source === "user" && JSON.stringify(s).includes("numbers.txt"))).toBe(true);
    expect(t.final_metrics.total_prompt_tokens).toBe(4 * 700);
  }, 180_000);
});
