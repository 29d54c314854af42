import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_PROMPT } from "../../src/agents/llm-loop/loop.js";
import type { Trajectory } from "../../src/agents/llm-loop/trajectory.js";
import { ToolsAgent } from "../../src/agents/tools-agent/tools-agent.js";
import { readTrajectory } from "../../src/report/export-sft.js";
import { type SftMessage, trajectoryToMessages } from "../../src/report/sft-messages.js";
import { HostFakeSandbox } from "../agents/fake-sandbox.js";
import { agentContext } from "../agents/fixtures.js";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let llm: LoopbackLlm;
let sb: HostFakeSandbox;
let traj: Trajectory;
let trajFile: string;

/** A real trajectory: the tools agent, a scripted model behind a real HTTP server, a host sandbox. */
beforeAll(async () => {
  llm = await startLoopbackLlm();
  sb = new HostFakeSandbox();
  llm.push(
    reply.tools([
      { name: "write_file", arguments: { path: "out.txt", content: "hello\n" }, id: "c1" },
      { name: "exec", arguments: { command: "cat out.txt; echo X-$((6*7))" }, id: "c2" },
    ]),
    reply.text("I think that is it."),
    reply.tools([{ name: "finish", arguments: { summary: "wrote out.txt" }, id: "c3" }]),
  );
  const { ctx } = agentContext(sb, "openai-compatible:loop-model", { base_url: llm.url, retry_base_ms: "5" });
  const r = await new ToolsAgent().run(ctx);
  expect(r.selfTerminated).toBe(true);
  trajFile = join(ctx.logDir, "trajectory.json");
  traj = readTrajectory(trajFile);
});
afterAll(async () => {
  await sb?.close();
  await llm.close();
});

const convert = (t: Trajectory, format: "openai" | "hf", instruction: string | null = null) => {
  const c = trajectoryToMessages(t, format, () => instruction);
  if (!c.ok) throw new Error(c.reason);
  return c;
};
const roles = (ms: SftMessage[]) => ms.map((m) => m.role);

describe("a tools-agent trajectory as chat messages", () => {
  it("openai: system, user, assistant tool calls with JSON-string arguments, one tool message per call", () => {
    const c = convert(traj, "openai");
    expect(roles(c.messages)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "user", // the text-only answer was told to act through the tools
      "assistant",
      "tool",
    ]);
    expect(c.messages[1]?.content).toContain("Create out.txt containing hello.");
    const first = c.messages[2];
    expect(first?.content).toBeNull();
    expect(first?.tool_calls).toEqual([
      {
        id: "call_1",
        type: "function",
        function: { name: "write_file", arguments: JSON.stringify({ path: "out.txt", content: "hello\n" }) },
      },
      {
        id: "call_2",
        type: "function",
        function: { name: "exec", arguments: JSON.stringify({ command: "cat out.txt; echo X-$((6*7))" }) },
      },
    ]);
    expect(c.messages[3]).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: "wrote 6 bytes to out.txt",
    });
    expect(c.messages[4]?.tool_call_id).toBe("call_2");
    expect(c.messages[4]?.content).toContain("X-42");
    expect(c.messages[4]?.content).toContain("exit code 0");
    expect(c.messages[5]).toEqual({ role: "assistant", content: "I think that is it." });
    expect(c.messages[6]?.content).toMatch(/parse error: the answer called no tool/);
    expect(c.messages[8]).toEqual({ role: "tool", tool_call_id: "call_3", content: "finished" });
    expect([c.assistantTurns, c.toolCalls]).toEqual([3, 3]);
  });

  it("hf: arguments stay objects, tool results carry the tool name, content is never null", () => {
    const c = convert(traj, "hf");
    const first = c.messages[2];
    expect(first?.content).toBe("");
    expect(first?.tool_calls?.[0]?.function).toEqual({
      name: "write_file",
      arguments: { path: "out.txt", content: "hello\n" },
    });
    expect(c.messages[4]).toMatchObject({ role: "tool", tool_call_id: "call_2", name: "exec" });
    expect(c.messages.every((m) => typeof m.content === "string")).toBe(true);
    // Every call is answered before the next assistant turn, as chat templates expect.
    for (const [i, m] of c.messages.entries()) {
      for (const [k, call] of (m.tool_calls ?? []).entries()) {
        expect(c.messages[i + 1 + k]).toMatchObject({ role: "tool", tool_call_id: call.id });
      }
    }
  });
});

describe("other trajectory shapes", () => {
  const step = (n: number, s: Partial<Trajectory["steps"][number]>): Trajectory["steps"][number] => ({
    step_id: n,
    timestamp: "2026-01-01T00:00:00Z",
    source: "agent",
    message: "",
    ...s,
  });
  const base = (steps: Trajectory["steps"]): Trajectory => ({ ...traj, steps });

  it("terminus: one screen observed after several commands answers the last one", () => {
    const t = base([
      step(1, { source: "user", message: "Task: x" }),
      step(2, {
        message: "Analysis: a\nPlan: p",
        tool_calls: [
          {
            tool_call_id: "t1-1",
            function_name: "keystrokes",
            arguments: { keystrokes: "ls\n", duration: 1 },
          },
          {
            tool_call_id: "t1-2",
            function_name: "keystrokes",
            arguments: { keystrokes: "pwd\n", duration: 1 },
          },
        ],
        observation: { results: [{ content: "$ ls\na b\n$ pwd\n/app" }] },
      }),
    ]);
    const c = convert(t, "openai");
    expect(c.messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "" },
      { role: "tool", tool_call_id: "call_2", content: "$ ls\na b\n$ pwd\n/app" },
    ]);
  });

  it("a context summary is the model's answer to the request for it, then the message it resumed from", () => {
    const summary = (extra: Record<string, unknown>) =>
      base([
        step(1, { source: "user", message: "Task: x" }),
        step(2, {
          message: "summary text",
          extra: { kind: "summary", resume_message: "Task: x\nSummary…", ...extra },
        }),
        step(3, { message: "next" }),
      ]);
    expect(convert(summary({ request: "Summarise now." }), "hf").messages.slice(1)).toEqual([
      { role: "user", content: "Summarise now." },
      { role: "assistant", content: "summary text" },
      { role: "user", content: "Task: x\nSummary…" },
      { role: "assistant", content: "next" },
    ]);
    // A trajectory from before the request was recorded was asked with the loop's prompt.
    expect(convert(summary({}), "hf").messages[1]).toEqual({ role: "user", content: SUMMARY_PROMPT });
    // A placeholder (the model answered nothing, or the call failed) is not the model's words.
    const c = convert(summary({ request: "Summarise now.", stand_in: true }), "openai");
    expect(c.messages.slice(1)).toEqual([
      { role: "user", content: "Task: x\nSummary…" },
      { role: "assistant", content: "next" },
    ]);
    expect(c.assistantTurns).toBe(1);
  });

  it("a scripted trajectory without a user step gets the task instruction as its user message", () => {
    const t = base([
      step(1, {
        tool_calls: [{ tool_call_id: "s1", function_name: "bash", arguments: { command: "make" } }],
        observation: { results: [{ source_call_id: "s1", content: "ok" }] },
      }),
    ]);
    expect(roles(convert(t, "openai", "Build it.").messages)).toEqual(["user", "assistant", "tool"]);
    expect(convert(t, "openai", "Build it.").messages[0]?.content).toBe("Build it.");
    expect(trajectoryToMessages(t, "openai", () => null)).toEqual({
      ok: false,
      reason: "no user step and no task instruction",
    });
    expect(trajectoryToMessages(base([step(1, { source: "user", message: "x" })]), "hf", () => "i")).toEqual({
      ok: false,
      reason: "no agent steps",
    });
  });

  it("a damaged trajectory is a UserError naming the file and the field", () => {
    const bad = JSON.parse(readFileSync(trajFile, "utf8"));
    bad.steps[2].tool_calls[0].function_name = 7;
    const file = join(sb.spec.workdir, "bad.json");
    writeFileSync(file, JSON.stringify(bad));
    expect(() => readTrajectory(file)).toThrow(
      /bad\.json: not an ATIF trajectory: steps\.2\.tool_calls\.0\.function_name/,
    );
    writeFileSync(file, "{");
    expect(() => readTrajectory(file)).toThrow(/bad\.json: not valid JSON/);
  });
});
