import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type LoopbackLlm,
  type RecordedRequest,
  reply,
  type ScriptedReply,
  startLoopbackLlm,
} from "../support/loopback-llm.js";
import {
  anthropicToolResult,
  KEY_CHECK_COMMAND,
  REAL_KEY,
  readTrajectory,
  realKeyOnHost,
  runOne,
  SUM_COMMAND,
  SUM_SCRIPT,
} from "./installed-e2e.js";

/**
 * Claude Code (the real pinned binary, installed into the agent cache on first use) through the
 * runner on the bwrap sandbox with no network: its Anthropic calls reach the loopback server
 * through the in-sandbox forwarder and a unix socket, and the loopback's scripted tool calls
 * (Bash, Write) solve the `hello` fixture.
 */
let llm: LoopbackLlm;

/** Step k of the main loop is decided by how many tool results the conversation holds. */
function script(req: RecordedRequest): ScriptedReply {
  const usage = { input: 900, output: 40, cached: 300 };
  if (!Array.isArray(req.body.tools) || req.body.tools.length === 0) return reply.text("ok");
  const messages = Array.isArray(req.body.messages) ? req.body.messages : [];
  const results = JSON.stringify(messages).split('"type":"tool_result"').length - 1;
  const steps: ScriptedReply[] = [
    reply.tools(
      [{ name: "Bash", arguments: { command: SUM_COMMAND, description: "sum" }, id: "toolu_1" }],
      usage,
    ),
    reply.tools(
      [{ name: "Write", arguments: { file_path: "/app/bin/sum", content: SUM_SCRIPT }, id: "toolu_2" }],
      usage,
    ),
    reply.tools(
      [
        {
          name: "Bash",
          arguments: { command: `chmod +x /app/bin/sum; ${KEY_CHECK_COMMAND}`, description: "check" },
          id: "toolu_3",
        },
      ],
      usage,
    ),
  ];
  return steps[results] ?? reply.text("All done.", usage);
}

// The real key lives on the host (as a user's would); the sandbox must never see it.
realKeyOnHost("ANTHROPIC_API_KEY");

beforeAll(async () => {
  llm = await startLoopbackLlm();
});
afterAll(async () => {
  await llm?.close();
});

describe("claude-code through the runner", () => {
  it("solves the fixture to R = 1.0 with scripted Bash and Write calls, never seeing the real key", async () => {
    llm.setFallback(script);
    const { trial, dir } = await runOne("claude-code", "anthropic:claude-loop", "cc", llm.url);
    expect({ outcome: trial.outcome, error: trial.error }).toEqual({ outcome: "completed", error: null });
    expect(trial.reward).toBe(1);
    expect(trial.self_terminated).toBe(true);
    expect(trial.usage.turns).toBe(4);
    expect(trial.usage.output_tokens).toBeGreaterThanOrEqual(4 * 40);
    // The gateway took the trial's token from the agent and sent the real key upstream.
    const main = llm.requests.filter((r) => Array.isArray(r.body.tools));
    expect(main.length).toBe(4);
    for (const r of llm.requests) {
      expect(r.headers["x-api-key"]).toBe(REAL_KEY);
    }
    // The key check ran inside the sandbox and its output came back as the tool result.
    expect(anthropicToolResult(main.at(-1)?.body.messages, "toolu_3")).toBe("KEY-CHECK-END");
    // The session log became ATIF: three tool calls with their results, then the answer.
    const t = readTrajectory(dir);
    expect(t.agent.name).toBe("claude-code");
    expect(t.final_metrics.extra?.source).toBe("claude-code session log");
    const calls = t.steps.flatMap((s) => s.tool_calls ?? []).map((c) => c.function_name);
    expect(calls).toEqual(["Bash", "Write", "Bash"]);
    const withResults = t.steps.filter((s) => (s.observation?.results.length ?? 0) > 0);
    expect(withResults.length).toBe(3);
    expect(t.steps[0]?.source).toBe("user");
  }, 180_000);
});
