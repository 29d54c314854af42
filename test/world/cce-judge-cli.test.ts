import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld } from "../../src/world/build/world.js";
import { worldCce } from "../../src/world/cce/world-cce.js";
import { DEFAULT_SEED } from "../../src/world/content/generate-content.js";
import { loadWorldTask, replayRounds } from "../../src/world/task/index.js";
import { verifyWorldRun } from "../../src/world/task/verify.js";
import { membersPrior, trialMembers } from "../../src/world/trial/members.js";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";
import { type LoopbackLlm, type RecordedRequest, reply, startLoopbackLlm } from "../support/loopback-llm.js";

const USAGE = { input: 1000, output: 20 };

/** The judge's prompt of a request: its first user message. */
function promptOf(req: RecordedRequest): string {
  const msgs = req.body.messages as Array<{ role: string; content: unknown }>;
  return String(msgs.find((m) => m.role === "user")?.content);
}

describe("longhaul world judge (a loopback model as the judge)", () => {
  let llm: LoopbackLlm;
  let file = "";
  // The exact tracer's view of the run, computed here without the command.
  let calls = 0;
  let witnesses: number[] = [];
  let closure: number[] = [];
  let rounds: number[] = [];

  beforeAll(async () => {
    llm = await startLoopbackLlm();
    const base = createWorld();
    const spec = loadWorldTask(resolve(import.meta.dirname, "../../world-tasks/warden-hunt.yaml"), base);
    const { session } = replayRounds(spec, base, spec.reference ?? []);
    const run = session.toRunFile(DEFAULT_SEED);
    file = join(tempDir("world-judge"), "run.json");
    writeFileSync(file, JSON.stringify(run));
    const success = verifyWorldRun(spec, base, session.state, session.events).success;
    const cce = worldCce({
      spec,
      base,
      state: session.state,
      events: session.events,
      calls: run.calls,
      success,
      prior: membersPrior(trialMembers(spec, base, [])),
      counterfactual: null,
    });
    ({ witnesses, closure } = cce);
    calls = cce.actions;
    rounds = run.calls.map((c) => c.round);
  });
  afterAll(async () => llm.close());

  const judge = (...extra: string[]) =>
    runCli(["world", "judge", file, "--model", "openai-compatible:judge", "--base-url", llm.url, ...extra]);

  it("prints the judge's success actions and closure against the tracer's, with raw agreement and κ", async () => {
    // The oracle's warden-hunt run: as docs/world.md says, 13 of its 28 calls are in the closure.
    expect([calls, closure.length]).toEqual([28, 13]);
    // The scripted judge: the witnesses plus the last call (a `complete`, outside the closure) in
    // step 1; walking back, the tracer's closure but one non-witness call, plus one call outside it.
    const extra = calls - 1;
    const dropped = closure.find((i) => !witnesses.includes(i)) ?? -1;
    const added = [...Array(calls).keys()].find((i) => !closure.includes(i) && i !== extra) ?? -1;
    expect(closure).not.toContain(extra);
    llm.reset();
    llm.push(reply.text("The warden kill, I think: #6.", USAGE));
    llm.setFallback((req) => {
      const m = /Step 2, round (\d+)\./.exec(promptOf(req));
      if (m === null) return reply.json({ success_actions: [...witnesses, extra] }, USAGE);
      const r = Number(m[1]);
      const enabling = [...closure, added].filter((i) => rounds[i] === r && i !== dropped);
      return reply.json({ enabling }, USAGE);
    });
    const out = await judge();
    expect(out.code, out.stderr).toBe(0);

    // By hand, tracer = rows, judge = columns, over all 28 calls.
    const c = closure.length;
    const table = { both: c - 1, onlyA: 1, onlyB: 2, neither: calls - c - 2 };
    const po = (table.both + table.neither) / calls;
    const pT = c / calls;
    const pJ = (c + 1) / calls;
    const pe = pT * pJ + (1 - pT) * (1 - pJ);
    const kappa = (po - pe) / (1 - pe);
    const w = witnesses.length;
    const wpo = (calls - 1) / calls;
    const wpe = (w / calls) * ((w + 1) / calls) + (1 - w / calls) * (1 - (w + 1) / calls);
    const wkappa = (wpo - wpe) / (1 - wpe);
    const requests = llm.requests.length;
    expect(out.stdout).toBe(
      [
        "success: yes",
        `judge openai-compatible:judge: model calls ${requests}, answers rejected 1`,
        '  rejected (step 1 (success actions)): not JSON: "The warden kill, I think: #6."',
        `witnesses (tracer): ${witnesses.map((i) => `#${i}`).join(" ")}`,
        `success actions (judge): ${[...witnesses, extra].map((i) => `#${i}`).join(" ")}`,
        `witness agreement over 28 calls: raw ${wpo.toFixed(3)} (27/28), κ ${wkappa.toFixed(3)} (chance ${wpe.toFixed(3)})`,
        "               judge in  judge out",
        `  tracer in  ${String(w).padStart(9)}          0`,
        `  tracer out         1  ${String(calls - w - 1).padStart(9)}`,
        "closure: tracer 13 calls, judge 14 calls",
        `closure agreement over 28 calls: raw ${po.toFixed(3)} (25/28), κ ${kappa.toFixed(3)} (chance ${pe.toFixed(3)})`,
        "               judge in  judge out",
        `  tracer in  ${String(table.both).padStart(9)}          1`,
        `  tracer out         2  ${String(table.neither).padStart(9)}`,
        `tokens: ${requests * USAGE.input} input, ${requests * USAGE.output} output; cost unknown (no price for the model)`,
        "",
      ].join("\n"),
    );
    // κ by hand: 12 / 1 / 2 / 13 — pₒ 25/28, pₑ (13·14 + 15·14)/28² = 0.5, κ = (25/28 − 1/2)/(1/2).
    expect(kappa).toBeCloseTo(11 / 14, 12);
    // Step 1, the retry of the malformed answer, then rounds 10 (the `complete`'s) down to 0.
    const asked = llm.requests.slice(2).map((r) => Number(/Step 2, round (\d+)\./.exec(promptOf(r))?.[1]));
    expect(asked).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(requests).toBe(13);
    // The judge saw the goal, the final state and every call of the log.
    const first = promptOf(llm.requests[0] as RecordedRequest);
    expect(first).toContain("- cook (cook): Buy two raw shrimp from the Greenvale cook");
    expect(first).toContain("Success: yes (all(✓ veteran killed 1/1 east_warden");
    expect(first).toContain(
      '  #0 veteran: equip_item {"item":"bronze_sword"} → ok; equipped item=bronze_sword',
    );
    expect(first).toContain("  #27 guard: complete");
  }, 60_000);

  it("--json: a judge that never answers well is reported as failed after three answers (exit 1)", async () => {
    llm.reset();
    llm.push(
      reply.text("no idea", USAGE),
      reply.json({ success: [1] }, USAGE),
      reply.json({ success_actions: [28] }, USAGE),
    );
    const out = await judge("--json");
    expect(out.code, out.stderr).toBe(1);
    const r = JSON.parse(out.stdout) as {
      judge: { failure: unknown; rejected: Array<{ problem: string }>; closure: unknown; modelCalls: number };
      agreement: { witnesses: unknown; closure: unknown };
      tracer: { closure: number[] };
      usage: { calls: number; tokens: { inputTokens: number } };
    };
    expect(r.judge.failure).toEqual({
      step: "step 1 (success actions)",
      attempts: 3,
      problem: "#28 is not a call of the run (0…27)",
    });
    expect(r.judge.rejected.map((x) => x.problem)).toEqual([
      'not JSON: "no idea"',
      "success_actions: Invalid input: expected array, received undefined",
      "#28 is not a call of the run (0…27)",
    ]);
    expect(r.judge.closure).toBeNull();
    expect(r.agreement).toEqual({ witnesses: null, closure: null });
    expect(r.tracer.closure).toEqual(closure);
    expect([r.judge.modelCalls, r.usage.calls, r.usage.tokens.inputTokens]).toEqual([3, 3, 3000]);
  }, 60_000);

  it("a bad model id is a user error (exit 2), before the run is replayed", async () => {
    const bad = await runCli(["world", "judge", file, "--model", "judge"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      'longhaul: model "judge": expected provider:model, e.g. openai:gpt-4.1 or openai-compatible:qwen3-coder',
    );
  }, 60_000);
});
