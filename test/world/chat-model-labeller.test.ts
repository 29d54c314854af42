import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorldChat } from "../../src/core/index.js";
import { createWorld } from "../../src/world/build/world.js";
import { labelUnchecked } from "../../src/world/chat/labeller.js";
import { modelLabeller, parseAnswer } from "../../src/world/chat/model-labeller.js";
import { DEFAULT_SEED } from "../../src/world/content/generate-content.js";
import { loadWorldTask, replayRounds } from "../../src/world/task/index.js";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";

/** The model labeller: unchecked messages go to a model (here a loopback server) in one request. */
const zero = { wrong_target: 0, premature_completion: 0, factual_error: 0, stale: 0 };
const chat: WorldChat = {
  messages: 3,
  delivered: 3,
  team: 3,
  direct: 0,
  per_round: [3],
  labels: { ...zero, logical_inconsistency: 0, duplicate: 0, empty_talk: 0, ok: 1, unchecked: 2 },
  agents: [
    {
      id: "cook",
      messages: 3,
      team: 3,
      direct: 0,
      first_round: 0,
      per_round: { "0": 3 },
      labels: { ...zero, logical_inconsistency: 0, duplicate: 0, empty_talk: 0, ok: 1, unchecked: 2 },
    },
  ],
  items: [0, 1, 2].map((call) => ({
    call,
    round: 0,
    agent: "cook",
    to: null,
    delivered: true,
    label: call === 0 ? ("ok" as const) : ("unchecked" as const),
    types: [],
    reason: "",
    by: "rules" as const,
  })),
  completions: [],
  analyze_ms: 1,
};
const texts = new Map([
  [0, "where greenvale_smith"],
  [1, "the smith is east of the bank"],
  [2, "let us meet by the river"],
]);

describe("modelLabeller", () => {
  let llm: LoopbackLlm;
  beforeAll(async () => {
    llm = await startLoopbackLlm();
  });
  afterAll(async () => {
    await llm.close();
  });

  it("sends the unchecked messages with the definitions; labels what the model answers, leaves the rest", async () => {
    llm.push(
      reply.text(
        'Here: [{"call": 1, "label": "factual_error", "reason": "the smith is west"}, {"call": 7, "label": "ok", "reason": "x"}]',
      ),
    );
    const labeller = modelLabeller("openai-compatible:loop-model", { base_url: llm.url });
    const out = await labelUnchecked(chat, texts, labeller);
    expect(llm.requests).toHaveLength(1);
    const body = JSON.stringify(llm.requests[0]?.body);
    expect(body).toContain("premature_completion: says something is done");
    expect(body).toContain("the smith is east of the bank");
    // Only the unchecked messages are asked about; the ok one is context ("earlier").
    const msgs = llm.requests[0]?.body.messages as { role: string; content: unknown }[];
    const asked = JSON.parse(String(msgs.find((m) => m.role === "user")?.content)) as {
      call: number;
      earlier: string[];
    }[];
    expect(asked.map((m) => m.call)).toEqual([1, 2]);
    expect(asked[0]?.earlier).toEqual(["cook → team: where greenvale_smith"]);
    expect(out.items.map((m) => [m.call, m.label, m.by])).toEqual([
      [0, "ok", "rules"],
      [1, "factual_error", "model"],
      [2, "unchecked", "rules"],
    ]);
    expect(out.labels).toMatchObject({ ok: 1, factual_error: 1, unchecked: 1 });
  });

  it("an answer without a valid JSON array labels nothing", () => {
    expect(parseAnswer("I think they are all fine").size).toBe(0);
    expect(parseAnswer('[{"call": 1, "label": "rude", "reason": ""}]').size).toBe(0);
    expect(parseAnswer('[{"call": 2, "label": "empty_talk", "reason": "vague"}]').get(2)).toEqual({
      label: "empty_talk",
      reason: "vague",
    });
  });
});

describe("longhaul world chat --model (a loopback model labels what the rules left unchecked)", () => {
  let llm: LoopbackLlm;
  let file = "";
  beforeAll(async () => {
    llm = await startLoopbackLlm();
    const base = createWorld();
    const spec = loadWorldTask(resolve(import.meta.dirname, "../../world-tasks/warden-hunt.yaml"), base);
    // The reference run, with one line of free English from the guard (who waits in round 0):
    // it names an entity, so it is not empty talk, and no rule's pattern reads it.
    const rounds = (spec.reference ?? []).map((r) => [...r]);
    rounds[0]?.splice(1, 0, {
      agent: "guard",
      call: { tool: "chat", args: { message: "east_warden is tougher than it looks" } },
    });
    const { session } = replayRounds(spec, base, rounds);
    file = join(tempDir("world-chat-model"), "run.json");
    writeFileSync(file, JSON.stringify(session.toRunFile(DEFAULT_SEED)));
  });
  afterAll(async () => llm.close());

  it("leaves the line unchecked without a model, and prints the model's label, marked, with one", async () => {
    const plain = await runCli(["world", "chat", file]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/guard → team: unchecked; "east_warden is tougher than it looks"/);
    expect(llm.requests).toHaveLength(0);

    llm.push(reply.text('[{"call": 1, "label": "factual_error", "reason": "it falls to one veteran"}]'));
    const labelled = await runCli([
      "world",
      "chat",
      file,
      "--model",
      "openai-compatible:labeller",
      "--base-url",
      llm.url,
    ]);
    expect(labelled.code, labelled.stderr).toBe(0);
    expect(labelled.stdout).toMatch(
      /guard → team: factual_error \(model\); "east_warden is tougher than it looks"; it falls to one veteran/,
    );
    expect(labelled.stdout).toMatch(/^labels: factual_error 1/m);
    expect(llm.requests).toHaveLength(1);
    expect(JSON.stringify(llm.requests[0]?.body)).toContain("east_warden is tougher than it looks");
  });

  it("refuses a model id without a provider before replaying anything", async () => {
    const r = await runCli(["world", "chat", file, "--model", "labeller"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/labeller/);
  });
});
