import { describe, expect, it } from "vitest";
import { InfraError } from "../../src/core/index.js";
import {
  ModelCallError,
  ModelClient,
  type ModelRequest,
  type ModelResponse,
  parseSettings,
} from "../../src/models/index.js";
import { JUDGE_ATTEMPTS, type JudgeModel, runJudge } from "../../src/world/cce/judge.js";
import { parseRoundAnswer, parseSuccessAnswer } from "../../src/world/cce/judge-answer.js";
import {
  type JudgeAction,
  type JudgeBrief,
  judgeActions,
  renderActionLog,
  renderEffect,
  roundPrompt,
  successPrompt,
} from "../../src/world/cce/judge-prompt.js";
import { indexRun } from "../../src/world/cce/log.js";
import type { JsonValue, WorldEvent } from "../../src/world/model/types.js";

describe("judge answers", () => {
  it("step 1 reads the success actions from plain, fenced or wrapped JSON, sorted and once each", () => {
    expect(parseSuccessAnswer('{"success_actions": [5, 2, 5]}', 6)).toEqual({ ok: true, actions: [2, 5] });
    expect(parseSuccessAnswer('Sure:\n```json\n{"success_actions":[0]}\n```', 6)).toEqual({
      ok: true,
      actions: [0],
    });
    expect(parseSuccessAnswer('The answer is {"success_actions": []}.', 6)).toEqual({
      ok: true,
      actions: [],
    });
  });

  it("a malformed answer is a JudgeAnswerError naming what was wrong", () => {
    const problem = (text: string) => {
      const r = parseSuccessAnswer(text, 6);
      if (r.ok) throw new Error(`parsed: ${text}`);
      expect(r.error.name).toBe("JudgeAnswerError");
      expect(r.error.step).toEqual({ step: "success" });
      return r.error.problem;
    };
    expect(problem("actions 2 and 5")).toBe('not JSON: "actions 2 and 5"');
    expect(problem('{"actions": [2]}')).toMatch(/^success_actions: /);
    expect(problem('{"success_actions": [2, "5"]}')).toMatch(/^success_actions\.1: /);
    expect(problem('{"success_actions": [1.5]}')).toMatch(/^success_actions\.0: /);
    expect(problem('{"success_actions": [-1]}')).toMatch(/^success_actions\.0: /);
    expect(problem('{"success_actions": [6]}')).toBe("#6 is not a call of the run (0…5)");
  });

  it("a round's answer may name only that round's calls", () => {
    const allowed = new Set([3, 4]);
    expect(parseRoundAnswer('{"enabling": [4]}', 1, allowed)).toEqual({ ok: true, actions: [4] });
    const r = parseRoundAnswer('{"enabling": [4, 7]}', 1, allowed);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe("step 2, round 1: #7 is not an action of round 1");
    const k = parseRoundAnswer('{"success_actions": [4]}', 2, allowed);
    if (k.ok) throw new Error("parsed");
    expect(k.error.problem).toMatch(/^enabling: /);
  });
});

/** A three-call log: a harvest, a hand-over that fails, a craft. */
function tinyLog() {
  const events: WorldEvent[] = [];
  const ev = (agent: string | null, type: string, action: number | null, data: Record<string, JsonValue>) =>
    events.push({ seq: events.length, tick: 0, agent, type, action, data });
  ev("miner", "action", 0, {
    tool: "harvest_resource",
    args: { target: "copper_rock" },
    ok: true,
    error: null,
  });
  ev("miner", "harvested", 0, { item: "copper_ore", qty: 1, lot: 0, resource: "copper" });
  ev("smith", "action", 2, {
    tool: "transfer_items",
    args: { to: "miner", item: "bar" },
    ok: false,
    error: { code: "not_held", message: "you hold no bar" },
  });
  ev("smith", "action", 3, { tool: "wait", args: {}, ok: true, error: null });
  return indexRun(events, []);
}

describe("judge prompts", () => {
  const calls = [
    { round: 0, agent: "miner", call: {} },
    { round: 0, agent: "smith", call: {} },
    { round: 1, agent: "smith", call: {} },
  ];
  const actions = judgeActions(tinyLog(), calls);

  it("each call shows its index, agent, arguments and result; effects without lot ids; rounds as headers", () => {
    expect(actions.map((a) => [a.index, a.round])).toEqual([
      [0, 0],
      [1, 0],
      [2, 1],
    ]);
    expect(renderActionLog(actions)).toBe(
      [
        "Round 0",
        '  #0 miner: harvest_resource {"target":"copper_rock"} → ok; harvested item=copper_ore qty=1 resource=copper',
        '  #1 smith: transfer_items {"to":"miner","item":"bar"} → failed [not_held]: you hold no bar',
        "Round 1",
        "  #2 smith: wait → ok",
      ].join("\n"),
    );
    expect(renderEffect({ type: "moved", data: { from: [1, 2], to: [3, 4], waypoints: [[2, 3]] } })).toBe(
      "moved to=(3,4)",
    );
    expect(
      renderEffect({ type: "traded", data: { npc: "cook", gave: { item: "coins", qty: 18 }, lots: [4] } }),
    ).toBe("traded npc=cook gave=coins×18");
  });

  it("step 1 shows goal, final state and log; a round's prompt names the round, the marked and its calls", () => {
    const brief: JudgeBrief = { goal: "GOAL", finalState: "FINAL", log: renderActionLog(actions) };
    const one = successPrompt(brief);
    expect(one).toContain("Task goal:\nGOAL\n\nFinal state:\nFINAL\n\nAction log:\nRound 0");
    expect(one).toContain('{"success_actions": [call indices]}');
    const [a0, a1, a2] = actions as [JudgeAction, JudgeAction, JudgeAction];
    const two = roundPrompt(brief, 0, [a2], [a0, a1]);
    expect(two).toContain(
      "Marked so far (the success actions and the actions that enabled them):\n  #2 smith: wait",
    );
    expect(two).toMatch(
      /Step 2, round 0\.[\s\S]*Actions of round 0:\n {2}#0 miner: harvest_resource[\s\S]*\n {2}#1 smith:/,
    );
    expect(two).toContain('{"enabling": [call indices of round 0 actions; [] if none]}');
  });
});

/** A model that answers from a script and keeps every request. */
function scripted(answer: (prompt: string, attempt: number) => string) {
  const requests: ModelRequest[] = [];
  const model: JudgeModel = {
    complete: async (req) => {
      requests.push(req);
      const first = req.messages[0]?.content;
      const text = answer(typeof first === "string" ? first : "", req.messages.length);
      const response: ModelResponse = {
        text,
        toolCalls: [],
        responseMessages: [{ role: "assistant", content: text }],
        finishReason: "stop",
        record: {
          model: "test:judge",
          tokens: {
            inputTokens: 1,
            outputTokens: 1,
            cachedTokens: 0,
            cacheWriteTokens: 0,
            reasoningTokens: 0,
          },
          costUsd: 0,
          priced: false,
          modelSec: 0,
          retrySec: 0,
          attempts: 1,
        },
      };
      return response;
    },
  };
  return { model, requests };
}

describe("runJudge", () => {
  // Rounds 0–3, two calls each (#0–#7); the success action is #5 (round 2).
  const actions: JudgeAction[] = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({
    index: i,
    round: Math.floor(i / 2),
    agent: i % 2 === 0 ? "a" : "b",
    text: "wait → ok",
  }));
  const brief: JudgeBrief = { goal: "g", finalState: "f", log: renderActionLog(actions) };
  const roundOf = (prompt: string): number | null => {
    const m = /Step 2, round (\d+)\./.exec(prompt);
    return m === null ? null : Number(m[1]);
  };

  it("marks the success actions, then walks back from their round to round 0, one round a call", async () => {
    const marks: Record<number, number[]> = { 2: [4], 1: [], 0: [0, 1] };
    const { model, requests } = scripted((p) => {
      const r = roundOf(p);
      return r === null ? '{"success_actions": [5]}' : JSON.stringify({ enabling: marks[r] });
    });
    const out = await runJudge(model, brief, actions);
    expect(out.failure).toBeNull();
    expect(out.successActions).toEqual([5]);
    // Round 3 comes after the latest success action: never asked.
    expect(out.rounds).toEqual([
      { round: 2, marked: [4] },
      { round: 1, marked: [] },
      { round: 0, marked: [0, 1] },
    ]);
    expect(out.closure).toEqual([0, 1, 4, 5]);
    expect(out.modelCalls).toBe(4);
    const round1 = String(requests[2]?.messages[0]?.content);
    // What round 1 is shown as marked: the calls of rounds ≥ 1 marked so far.
    expect(round1).toContain(
      "Marked so far (the success actions and the actions that enabled them):\n  #4 a: wait → ok\n  #5 b:",
    );
    expect(round1).toContain("Actions of round 1:\n  #2 a: wait → ok\n  #3 b: wait → ok\n\n");
  });

  it("no success actions: no walk, an empty closure", async () => {
    const { model } = scripted(() => '{"success_actions": []}');
    const out = await runJudge(model, brief, actions);
    expect(out).toMatchObject({ successActions: [], closure: [], rounds: [], modelCalls: 1, failure: null });
  });

  it("a malformed answer is sent back with its problem and retried; the next good answer counts", async () => {
    const { model, requests } = scripted((p, n) => {
      if (roundOf(p) !== null) return '{"enabling": []}';
      return n === 1 ? "I think #7." : '{"success_actions": [1]}';
    });
    const out = await runJudge(model, brief, actions);
    expect(out.rejected).toEqual([{ step: "step 1 (success actions)", problem: 'not JSON: "I think #7."' }]);
    expect(out.closure).toEqual([1]);
    const retry = requests[1]?.messages ?? [];
    expect(retry).toHaveLength(3);
    expect(retry[1]).toEqual({ role: "assistant", content: "I think #7." });
    expect(String(retry[2]?.content)).toContain('Your answer was rejected: not JSON: "I think #7."');
  });

  it(`after ${JUDGE_ATTEMPTS} malformed answers to one step the judge has failed: recorded, not thrown`, async () => {
    const { model, requests } = scripted((p) =>
      roundOf(p) === null ? '{"success_actions": [5]}' : '{"enabling": [0]}',
    );
    const out = await runJudge(model, brief, actions);
    // Round 2 may name #4 or #5 only.
    expect(out.failure).toEqual({
      step: "step 2, round 2",
      attempts: JUDGE_ATTEMPTS,
      problem: "#0 is not an action of round 2",
    });
    expect(out.rejected).toHaveLength(JUDGE_ATTEMPTS);
    expect(out.successActions).toEqual([5]);
    expect(out.closure).toBeNull();
    expect(requests).toHaveLength(1 + JUDGE_ATTEMPTS);
  });

  it("a model server that cannot be reached is an infrastructure error, thrown (the command exits 3)", async () => {
    const client = new ModelClient("openai-compatible:judge", {
      settings: parseSettings({ baseUrl: "http://127.0.0.1:9/v1", maxRetries: 0 }),
    });
    const err = await runJudge(client, brief, actions).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(err).toBeInstanceOf(InfraError);
    expect((err as Error).message).toMatch(/^model openai-compatible:judge: /);
  });
});
