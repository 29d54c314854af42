import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { trajectorySchema } from "../../src/agents/llm-loop/trajectory.js";
import { TerminusAgent } from "../../src/agents/terminus/terminus-agent.js";
import { InfraError, UserError } from "../../src/core/index.js";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";
import { HostFakeSandbox } from "./fake-sandbox.js";
import { agentContext, usePricing } from "./fixtures.js";

const MODEL = "openai-compatible:loop-model";
let llm: LoopbackLlm;
let sb: HostFakeSandbox;

beforeAll(async () => {
  llm = await startLoopbackLlm();
  usePricing({ "openai-compatible:loop-model": { input: 1, output: 4, cached_input: 0.1 } });
});
afterAll(async () => {
  await llm.close();
});
afterEach(async () => {
  await sb?.close();
  // Replies a failed test left unused must not answer the next test's calls.
  llm.reset();
  llm.setFallback(() => reply.error(500));
});

const answer = (commands: { keystrokes: string; duration?: number }[], done = false, analysis = "") =>
  reply.json(
    { analysis, plan: "", commands: commands.map((c) => ({ duration: 0.5, ...c })), task_complete: done },
    { input: 1000, output: 100, cached: 200, reasoning: 10 },
  );

function opts(extra: Record<string, string> = {}) {
  return { base_url: llm.url, retry_base_ms: "5", retry_max_ms: "20", ...extra };
}

function lastUserText(i: number): string {
  const msgs = llm.requests[i]?.body.messages as { role: string; content: unknown }[] | undefined;
  const m = msgs?.filter((x) => x.role === "user").at(-1);
  return typeof m?.content === "string" ? m.content : JSON.stringify(m?.content);
}

function readTrajectory(dir: string) {
  return trajectorySchema.parse(JSON.parse(readFileSync(join(dir, "trajectory.json"), "utf8")));
}

describe("terminus agent (tmux on a host fake sandbox)", () => {
  it("solves a small task, confirms completion and records everything", async () => {
    sb = new HostFakeSandbox();
    const start = llm.requests.length;
    llm.push(
      answer([{ keystrokes: "echo hello > out.txt; echo WROTE-$((40+2))\n" }]),
      answer([{ keystrokes: "cat out.txt\n" }], true),
      answer([], true),
    );
    const { ctx } = agentContext(sb, MODEL, opts());
    const r = await new TerminusAgent().run(ctx);
    expect(r.selfTerminated).toBe(true);
    expect(r.error).toBeUndefined();
    expect(readFileSync(join(sb.spec.workdir, "out.txt"), "utf8")).toBe("hello\n");
    // The model saw the command's output (computed by the shell, not echoed keystrokes).
    expect(lastUserText(start + 1)).toContain("WROTE-42");
    expect(lastUserText(start + 2)).toMatch(/marked the task complete/);
    expect(lastUserText(start + 2)).toContain("hello");
    expect(r.usage).toMatchObject({
      turns: 3,
      parse_errors: 0,
      input_tokens: 3000,
      output_tokens: 300,
      cached_tokens: 600,
      reasoning_tokens: 30,
    });
    expect(r.usage?.cost_usd).toBeCloseTo((3 * (800 * 1 + 200 * 0.1 + 100 * 4)) / 1e6, 12);
    expect(r.usage?.command_sec).toBeGreaterThan(0);
    expect(r.usage?.model_sec).toBeGreaterThan(0);

    const t = readTrajectory(ctx.logDir);
    expect(t.agent).toMatchObject({ name: "terminus", model_name: MODEL });
    expect(t.steps.map((s) => s.source)).toEqual(["system", "user", "agent", "agent", "agent"]);
    expect(t.steps[2]?.tool_calls?.[0]?.arguments.keystrokes).toContain("echo hello");
    expect(t.steps[2]?.observation?.results[0]?.content).toContain("WROTE-42");
    expect(t.steps[2]?.metrics).toMatchObject({
      prompt_tokens: 1000,
      completion_tokens: 100,
      cached_tokens: 200,
    });
    expect(t.final_metrics).toMatchObject({ total_prompt_tokens: 3000, total_steps: 5 });
    expect(t.final_metrics.extra?.stop_reason).toBe("self");

    const cast = readFileSync(join(ctx.logDir, "recording.cast"), "utf8").trim().split("\n");
    expect(JSON.parse(cast[0] ?? "{}")).toMatchObject({ version: 2, width: 160, height: 40 });
    const events = cast.slice(1).map((l) => JSON.parse(l) as [number, string, string]);
    expect(events.some((e) => e[1] === "o" && e[2].includes("WROTE-42"))).toBe(true);
    expect(events.every((e, i) => i === 0 || e[0] >= (events[i - 1]?.[0] ?? 0))).toBe(true);
    expect(readFileSync(join(ctx.logDir, "model-calls.jsonl"), "utf8").trim().split("\n")).toHaveLength(3);
  });

  it("stops as self-terminated when the model claims completion early and confirms", async () => {
    sb = new HostFakeSandbox();
    llm.push(answer([], true), answer([], true));
    const { ctx } = agentContext(sb, MODEL, opts());
    const r = await new TerminusAgent().run(ctx);
    expect(r.selfTerminated).toBe(true);
    expect(r.usage?.turns).toBe(2);
    expect(existsSync(join(sb.spec.workdir, "out.txt"))).toBe(false);
  });

  it("withdrawing a completion claim continues the run", async () => {
    sb = new HostFakeSandbox();
    llm.push(
      answer([], true),
      answer([{ keystrokes: "touch later\n" }], false),
      answer([], true),
      answer([], true),
    );
    const { ctx } = agentContext(sb, MODEL, opts());
    const r = await new TerminusAgent().run(ctx);
    expect(r.selfTerminated).toBe(true);
    expect(r.usage?.turns).toBe(4);
    expect(existsSync(join(sb.spec.workdir, "later"))).toBe(true);
  });

  it("is stopped by the turn budget when it never finishes", async () => {
    sb = new HostFakeSandbox();
    llm.setFallback(() => answer([{ keystrokes: "true\n", duration: 0.1 }]));
    const { ctx } = agentContext(sb, MODEL, opts({ max_turns: "3" }));
    const r = await new TerminusAgent().run(ctx);
    expect(r.selfTerminated).toBe(false);
    expect(r.error).toBeUndefined();
    expect(r.usage?.turns).toBe(3);
    expect(readTrajectory(ctx.logDir).final_metrics.extra?.stop_reason).toBe("turns");
  });

  it("is stopped by the wall-clock budget", async () => {
    sb = new HostFakeSandbox();
    llm.setFallback(() => answer([{ keystrokes: "sleep 5\n", duration: 0.3 }]));
    const { ctx } = agentContext(sb, MODEL, opts({ max_wall_sec: "0.8" }));
    const r = await new TerminusAgent().run(ctx);
    expect(r.selfTerminated).toBe(false);
    expect(readTrajectory(ctx.logDir).final_metrics.extra?.stop_reason).toBe("wall");
    expect(r.usage?.turns).toBeGreaterThanOrEqual(1);
    expect(r.usage?.turns).toBeLessThan(6);
  });

  it("survives malformed JSON, empty answers, 500/429 bursts and a hung connection", async () => {
    sb = new HostFakeSandbox();
    const start = llm.requests.length;
    llm.push(
      reply.text("I will now run ls"),
      reply.error(500),
      reply.error(429, 0),
      reply.empty(),
      reply.hang(),
      reply.text('```json\n{"analysis": "a", "commands": [{"keystrokes": 5}]}\n```'),
      answer([{ keystrokes: "echo fine\n" }]),
      answer([], true),
      answer([], true),
    );
    const { ctx } = agentContext(sb, MODEL, opts({ timeout_sec: "0.5" }));
    const r = await new TerminusAgent().run(ctx);
    expect(r.selfTerminated).toBe(true);
    expect(r.usage).toMatchObject({ turns: 6, parse_errors: 3 });
    expect(lastUserText(start + 1)).toMatch(/no JSON object found/);
    expect(lastUserText(start + 4)).toMatch(/answer was empty/);
    const t = readTrajectory(ctx.logDir);
    expect(t.final_metrics.extra?.retries).toBe(3);
    expect(Number(t.final_metrics.extra?.retry_sec)).toBeGreaterThanOrEqual(0.45);
    expect(t.steps.filter((s) => s.extra?.parse_error === true)).toHaveLength(3);
  });

  it("types a whole file the model writes through a heredoc (64 KB of keystrokes)", async () => {
    sb = new HostFakeSandbox();
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i} ${"x".repeat(56)}`).join("\n");
    llm.push(
      answer([{ keystrokes: `cat > big.txt <<'EOF'\n${text}\nEOF\n`, duration: 10 }], true),
      answer([], true),
    );
    const { ctx } = agentContext(sb, MODEL, opts());
    const r = await new TerminusAgent().run(ctx);
    expect(r.selfTerminated).toBe(true);
    expect(readFileSync(join(sb.spec.workdir, "big.txt"), "utf8")).toBe(`${text}\n`);
  });

  it("summarises older turns when the context nears the window and carries on", async () => {
    sb = new HostFakeSandbox();
    const start = llm.requests.length;
    const big = (done: boolean) =>
      reply.json(
        {
          analysis: "",
          plan: "",
          commands: [{ keystrokes: "echo step\n", duration: 0.2 }],
          task_complete: done,
        },
        { input: 900, output: 50 },
      );
    const small = reply.json({ commands: [], task_complete: true }, { input: 100, output: 10 });
    llm.push(
      big(false),
      reply.text("SUMMARY-7781: wrote nothing yet", { input: 950, output: 40 }),
      small,
      small,
    );
    const { ctx } = agentContext(sb, MODEL, opts({ context_window: "1000", summarize_at: "0.8" }));
    const r = await new TerminusAgent().run(ctx);
    expect(r.selfTerminated).toBe(true);
    const summaryReq = llm.requests[start + 1];
    expect(JSON.stringify(summaryReq?.body.messages)).toMatch(/context is nearly full/);
    const after = llm.requests[start + 2]?.body.messages as { role: string; content: string }[];
    expect(after.filter((m) => m.role !== "system")).toHaveLength(1);
    expect(after.at(-1)?.content).toContain("SUMMARY-7781");
    expect(after.at(-1)?.content).toContain("Create out.txt");
    const t = readTrajectory(ctx.logDir);
    expect(t.final_metrics.extra?.summaries).toBeGreaterThanOrEqual(1);
    // The request is recorded with the summary, so an export can show what the model answered.
    expect(t.steps.find((s) => s.extra?.kind === "summary")?.extra).toMatchObject({
      request: expect.stringMatching(/context is nearly full/),
      stand_in: false,
    });
    // The summary call is paid for but is not a turn.
    expect(r.usage).toMatchObject({
      turns: 3,
      input_tokens: 900 + 950 + 100 + 100,
      output_tokens: 50 + 40 + 10 + 10,
    });
  });

  it("raises a provider outage during summarisation instead of dropping the history", async () => {
    sb = new HostFakeSandbox();
    const start = llm.requests.length;
    llm.push(
      reply.json(
        { commands: [{ keystrokes: "echo step\n", duration: 0.2 }], task_complete: false },
        { input: 900, output: 50 },
      ),
      reply.error(503),
      reply.error(503),
      reply.json({ commands: [], task_complete: true }, { input: 100, output: 10 }),
      reply.json({ commands: [], task_complete: true }, { input: 100, output: 10 }),
    );
    const { ctx } = agentContext(
      sb,
      MODEL,
      opts({ context_window: "1000", summarize_at: "0.8", max_retries: "1" }),
    );
    const err = await new TerminusAgent().run(ctx).catch((e: unknown) => e);
    // The trial is retried as the provider's failure; the agent never goes on without its history.
    expect(err).toBeInstanceOf(InfraError);
    expect((err as InfraError).retryable).toBe(true);
    expect(llm.requests.length).toBe(start + 3);
  });

  it("ends in an agent error when the model rejects the conversation", async () => {
    sb = new HostFakeSandbox();
    llm.push(reply.error(400));
    const { ctx } = agentContext(sb, MODEL, opts());
    const r = await new TerminusAgent().run(ctx);
    expect(r.selfTerminated).toBe(false);
    expect(r.error).toMatch(/http 400/);
    expect(readTrajectory(ctx.logDir).final_metrics.extra?.stop_reason).toBe("error");
  });

  it("raises a bad key as a user error and a provider outage as a retryable infra error", async () => {
    sb = new HostFakeSandbox();
    llm.push(reply.error(401));
    const a = agentContext(sb, MODEL, opts());
    await expect(new TerminusAgent().run(a.ctx)).rejects.toBeInstanceOf(UserError);
    await sb.close();
    sb = new HostFakeSandbox();
    llm.push(reply.error(503), reply.error(503));
    const b = agentContext(sb, MODEL, opts({ max_retries: "1" }));
    const err = await new TerminusAgent().run(b.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    expect((err as InfraError).retryable).toBe(true);
    expect(readTrajectory(b.ctx.logDir).final_metrics.extra?.error).toMatch(/gave up after 2 attempts/);
  });
});
