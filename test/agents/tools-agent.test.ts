import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { trajectorySchema } from "../../src/agents/llm-loop/trajectory.js";
import { ToolsAgent } from "../../src/agents/tools-agent/tools-agent.js";
import { type LoopbackLlm, type RecordedRequest, reply, startLoopbackLlm } from "../support/loopback-llm.js";
import { HostFakeSandbox } from "./fake-sandbox.js";
import { agentContext, usePricing } from "./fixtures.js";

let llm: LoopbackLlm;
let sb: HostFakeSandbox;
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

beforeAll(async () => {
  llm = await startLoopbackLlm();
  usePricing({ "loop-model": { input: 2, output: 8 } });
});
afterAll(async () => {
  await llm.close();
});
afterEach(async () => {
  await sb?.close();
  llm.setFallback(() => reply.error(500));
});

const opts = (extra: Record<string, string> = {}) => ({ base_url: llm.url, retry_base_ms: "5", ...extra });

/** Every tool result the model was sent in one request, in order (both wire formats). */
function toolResults(req: RecordedRequest | undefined): string[] {
  const msgs = (req?.body.messages ?? []) as { role: string; content: unknown }[];
  const out: string[] = [];
  for (const m of msgs) {
    if (m.role === "tool" && typeof m.content === "string") out.push(m.content);
    if (m.role === "user" && Array.isArray(m.content))
      for (const p of m.content as { type: string; content?: unknown }[])
        if (p.type === "tool_result")
          out.push(typeof p.content === "string" ? p.content : JSON.stringify(p.content));
  }
  return out;
}

/** The tool-call id each tool result in one request answers, in order (both wire formats). */
function toolResultIds(req: RecordedRequest | undefined): string[] {
  const msgs = (req?.body.messages ?? []) as { role: string; content: unknown; tool_call_id?: string }[];
  const out: string[] = [];
  for (const m of msgs) {
    if (m.role === "tool") out.push(String(m.tool_call_id));
    if (m.role === "user" && Array.isArray(m.content))
      for (const p of m.content as { type: string; tool_use_id?: string }[])
        if (p.type === "tool_result") out.push(String(p.tool_use_id));
  }
  return out;
}

describe.each([
  { model: "openai-compatible:loop-model", stream: "false" },
  { model: "anthropic:loop-model", stream: "true" },
])("tools agent via $model (stream $stream)", ({ model, stream }) => {
  it("solves a small task with exec, write_file, read_file and finish", async () => {
    process.env.ANTHROPIC_API_KEY = "sk-test";
    sb = new HostFakeSandbox();
    const start = llm.requests.length;
    llm.push(
      reply.tools(
        [
          { name: "write_file", arguments: { path: "notes/a.txt", content: "hello\n" } },
          { name: "exec", arguments: { command: "cat notes/a.txt; echo X-$((6*7)); exit 3" } },
        ],
        { input: 500, output: 40 },
      ),
      reply.tools([{ name: "read_file", arguments: { path: "notes/a.txt" } }], { input: 600, output: 20 }),
      reply.tools([{ name: "finish", arguments: { summary: "done" } }], { input: 700, output: 10 }),
    );
    const { ctx } = agentContext(sb, model, opts({ stream }));
    const r = await new ToolsAgent().run(ctx);
    expect(r.selfTerminated).toBe(true);
    expect(readFileSync(join(sb.spec.workdir, "notes/a.txt"), "utf8")).toBe("hello\n");
    const seen = toolResults(llm.requests[start + 1]);
    expect(seen[0]).toMatch(/wrote 6 bytes/);
    expect(seen[1]).toMatch(/exit code 3/);
    expect(seen[1]).toContain("X-42");
    expect(toolResults(llm.requests[start + 2]).at(-1)).toBe("hello\n");
    expect(llm.requests[start]?.stream).toBe(stream === "true");
    expect(r.usage).toMatchObject({ turns: 3, parse_errors: 0, input_tokens: 1800, output_tokens: 70 });
    expect(r.usage?.cost_usd).toBeCloseTo((1800 * 2 + 70 * 8) / 1e6, 12);
    const t = trajectorySchema.parse(JSON.parse(readFileSync(join(ctx.logDir, "trajectory.json"), "utf8")));
    expect(t.steps[2]?.tool_calls?.map((c) => c.function_name)).toEqual(["write_file", "exec"]);
    expect(t.steps[2]?.observation?.results[1]?.content).toContain("X-42");
    expect(t.steps[2]?.observation?.results[1]?.source_call_id).toBe(
      t.steps[2]?.tool_calls?.[1]?.tool_call_id,
    );
    expect(t.steps[2]?.model_name).toBe(model);
    expect(readFileSync(join(ctx.logDir, "recording.cast"), "utf8")).toContain("X-42");
  });

  it("counts malformed tool arguments and text-only answers as parse errors and carries on", async () => {
    sb = new HostFakeSandbox();
    const start = llm.requests.length;
    llm.push(
      reply.tools([{ name: "exec", arguments: '{"command": "touch x' }]),
      reply.text("I think I am done."),
      reply.error(503),
      reply.tools([{ name: "exec", arguments: { command: "touch made" } }]),
      reply.tools([{ name: "finish", arguments: {} }]),
    );
    const { ctx } = agentContext(sb, model, opts({ stream }));
    const r = await new ToolsAgent().run(ctx);
    expect(r.selfTerminated).toBe(true);
    expect(r.usage).toMatchObject({ turns: 4, parse_errors: 2 });
    expect(toolResults(llm.requests[start + 1]).at(-1)).toMatch(/error: invalid call to exec/);
    expect(existsSync(join(sb.spec.workdir, "made"))).toBe(true);
    expect(existsSync(join(sb.spec.workdir, "x"))).toBe(false);
  });

  it("answers an unknown tool and unparsable arguments once each, in its own words", async () => {
    sb = new HostFakeSandbox();
    const start = llm.requests.length;
    llm.push(
      reply.tools([
        { name: "rm_everything", arguments: { a: 1 }, id: "c1" },
        { name: "exec", arguments: '{"command": "ls', id: "c2" },
      ]),
      reply.tools([{ name: "finish", arguments: {} }]),
    );
    const { ctx } = agentContext(sb, model, opts({ stream }));
    const r = await new ToolsAgent().run(ctx);
    expect(r.selfTerminated).toBe(true);
    expect(r.usage).toMatchObject({ turns: 2, parse_errors: 1 });
    // One result per call (providers refuse a tool call answered twice), and it is the agent's.
    const next = llm.requests[start + 1];
    expect(toolResultIds(next)).toEqual(["c1", "c2"]);
    const results = toolResults(next);
    expect(results[0]).toMatch(/error: invalid call to rm_everything/);
    expect(results[1]).toMatch(/error: invalid call to exec/);
  });

  it("is stopped by the turn budget when it never calls finish", async () => {
    sb = new HostFakeSandbox();
    llm.setFallback(() => reply.tools([{ name: "exec", arguments: { command: "true" } }]));
    const { ctx } = agentContext(sb, model, opts({ stream, max_turns: "4" }));
    const r = await new ToolsAgent().run(ctx);
    expect(r.selfTerminated).toBe(false);
    expect(r.usage?.turns).toBe(4);
  });

  it("caps a command at max_command_sec", async () => {
    sb = new HostFakeSandbox();
    llm.push(
      reply.tools([{ name: "exec", arguments: { command: "sleep 30", timeout_sec: 100 } }]),
      reply.tools([{ name: "finish", arguments: {} }]),
    );
    const start = llm.requests.length;
    const { ctx } = agentContext(sb, model, opts({ stream, max_command_sec: "0.5" }));
    const r = await new ToolsAgent().run(ctx);
    expect(toolResults(llm.requests[start + 1]).at(-1)).toMatch(/timed out after 0.5 s/);
    expect(r.usage?.command_sec).toBeGreaterThanOrEqual(0.45);
    expect(r.usage?.command_sec).toBeLessThan(5);
  });
});

describe("tools agent under the phase timeout", () => {
  it("stops promptly when the phase is aborted and still writes its records", async () => {
    sb = new HostFakeSandbox();
    llm.setFallback(() => ({
      kind: "tools",
      calls: [{ name: "exec", arguments: { command: "sleep 0.05" } }],
      delayMs: 50,
    }));
    const { ctx, controller } = agentContext(sb, "openai-compatible:loop-model", opts());
    setTimeout(() => controller.abort(new Error("phase timeout")), 600);
    const t0 = performance.now();
    const r = await new ToolsAgent().run(ctx);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(r.selfTerminated).toBe(false);
    expect(r.error).toBeUndefined();
    expect(r.usage?.turns).toBeGreaterThan(0);
    const t = trajectorySchema.parse(JSON.parse(readFileSync(join(ctx.logDir, "trajectory.json"), "utf8")));
    expect(t.final_metrics.extra?.stop_reason).toBe("aborted");
  });
});
