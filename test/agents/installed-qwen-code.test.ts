import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type LoopbackLlm,
  type RecordedRequest,
  reply,
  type ScriptedReply,
  startLoopbackLlm,
} from "../support/loopback-llm.js";
import { REAL_KEY, readTrajectory, realKeyOnHost, runOne, SUM_COMMAND, SUM_SCRIPT } from "./installed-e2e.js";

/**
 * Qwen Code (the pinned npm package, run by the host's Node bound into the sandbox) through the
 * runner: OpenAI chat completions through the forwarder, scripted run_shell_command and
 * write_file calls solving the fixture.
 */
let llm: LoopbackLlm;

function script(req: RecordedRequest): ScriptedReply {
  const usage = { input: 500, output: 20, cached: 0 };
  if (!Array.isArray(req.body.tools) || req.body.tools.length === 0) return reply.text("ok");
  const messages = Array.isArray(req.body.messages) ? req.body.messages : [];
  const results = messages.filter((m: { role?: string }) => m?.role === "tool").length;
  const steps = [
    reply.tools([{ name: "run_shell_command", arguments: { command: SUM_COMMAND }, id: "call_1" }], usage),
    reply.tools(
      [{ name: "write_file", arguments: { file_path: "/app/bin/sum", content: SUM_SCRIPT }, id: "call_2" }],
      usage,
    ),
    reply.tools(
      [{ name: "run_shell_command", arguments: { command: "chmod +x /app/bin/sum" }, id: "call_3" }],
      usage,
    ),
  ];
  return steps[results] ?? reply.text("Done.", usage);
}

realKeyOnHost("OPENAI_API_KEY");

beforeAll(async () => {
  llm = await startLoopbackLlm();
});
afterAll(async () => {
  await llm?.close();
});

describe("qwen-code through the runner", () => {
  it("solves the fixture to R = 1.0 over chat completions with shell and write_file calls", async () => {
    llm.setFallback(script);
    const { trial, dir } = await runOne("qwen-code", "openai:qwen-loop", "qw", llm.url);
    expect({ outcome: trial.outcome, error: trial.error }).toEqual({ outcome: "completed", error: null });
    expect(trial.reward).toBe(1);
    expect(trial.self_terminated).toBe(true);
    for (const r of llm.requests) expect(r.headers.authorization).toBe(`Bearer ${REAL_KEY}`);
    const t = readTrajectory(dir);
    expect(t.agent.name).toBe("qwen-code");
    const made = t.steps.flatMap((s) => s.tool_calls ?? []).map((c) => c.function_name);
    expect(made).toEqual(["run_shell_command", "write_file", "run_shell_command"]);
  }, 180_000);
});
