import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChatMessage, WorldChat } from "../../src/core/index.js";
import { createWorld, type World } from "../../src/world/build/world.js";
import { type ChatLabeller, labelUnchecked, parseChat, worldChat } from "../../src/world/chat/index.js";
import { DEFAULT_SEED } from "../../src/world/content/generate-content.js";
import {
  loadWorldTask,
  replayRounds,
  type WorldTaskRounds,
  type WorldTaskSpec,
  worldTaskSession,
} from "../../src/world/task/index.js";

/**
 * Hand-made runs of market-supply (lumberjack, miner, fisher, cook, merchant act in that order
 * each round): each rule of the chat analysis with a message it must flag and one it must not.
 */
const TASK = resolve(import.meta.dirname, "../../world-tasks/market-supply.yaml");
type Planned = WorldTaskRounds[number][number];

let base: World;
let spec: WorldTaskSpec;
beforeAll(() => {
  base = createWorld();
  spec = loadWorldTask(TASK, base);
});

const say = (agent: string, message: string, to?: string): Planned => ({
  agent,
  call: { tool: "chat", args: to === undefined ? { message } : { message, to } },
});
const act = (agent: string, tool: string, args: Record<string, unknown> = {}): Planned => ({
  agent,
  call: { tool, args },
});

function analyse(rounds: Planned[][]): WorldChat {
  const { session } = replayRounds(spec, base, rounds);
  return worldChat(base, session.toRunFile(DEFAULT_SEED));
}

function msg(c: WorldChat, agent: string, round: number): ChatMessage {
  const m = c.items.find((x) => x.agent === agent && x.round === round);
  if (m === undefined) throw new Error(`no message of ${agent} in round ${round}`);
  return m;
}

describe("chat lines", () => {
  it("reads the scripted protocol and plain variants; anything else is other", () => {
    const kinds = parseChat(
      "greenvale_smith at (538,388); I am at 10, 12. I have 2 pine_log\nwhere is the greenvale_smith?; done kill 1 east_warden; at 7,8; take gather 2 pine_log; need 2 raw_shrimp for cook at (527,381); gave 2 pine_log to merchant; all done; can you craft 3 cooked_shrimp; nice weather",
      "miner",
    ).map((l) => l.line);
    expect(kinds).toEqual([
      { kind: "position", entity: "greenvale_smith", x: 538, y: 388 },
      { kind: "position", entity: "miner", x: 10, y: 12 },
      { kind: "holds", agent: "miner", item: "pine_log", qty: 2 },
      { kind: "where", entity: "greenvale_smith" },
      { kind: "done", key: "kill 1 east_warden" },
      { kind: "position", entity: "miner", x: 7, y: 8 },
      { kind: "take", key: "gather 2 pine_log" },
      { kind: "need", item: "raw_shrimp", qty: 2, to: "cook", x: 527, y: 381 },
      { kind: "gave", item: "pine_log", qty: 2, to: "merchant" },
      { kind: "done_all" },
      { kind: "request", verb: "craft", item: "cooked_shrimp" },
      { kind: "other" },
    ]);
  });
});

describe("chat rules, each against the replayed state", () => {
  it("wrong target: an unknown agent, an offline one, a role without the skill; not the able cook", () => {
    const c = analyse([
      [
        say("miner", "where greenvale_smith", "nobody"),
        act("fisher", "complete", { summary: "bye" }),
        say("cook", "need 3 raw_shrimp for cook at (528,381)", "fisher"),
        say("merchant", "please craft 3 cooked_shrimp", "lumberjack"),
      ],
      [say("merchant", "please craft 3 cooked_shrimp", "cook")],
    ]);
    expect(msg(c, "miner", 0)).toMatchObject({ label: "wrong_target", delivered: false, to: "nobody" });
    expect(msg(c, "cook", 0)).toMatchObject({ label: "wrong_target", delivered: true });
    expect(msg(c, "cook", 0).reason).toContain("offline");
    expect(msg(c, "merchant", 0)).toMatchObject({ label: "wrong_target" });
    expect(msg(c, "merchant", 0).reason).toContain("lumberjack cannot craft cooked_shrimp");
    expect(msg(c, "merchant", 1)).toMatchObject({ label: "ok", types: [] });
    expect([c.direct, c.team]).toEqual([4, 0]);
  });

  it("factual error and stale: a wrong NPC place, a moved agent's old place, false holdings and hand-overs", () => {
    const start = worldTaskSession(spec, base).state;
    const lj = start.agents.get(start.agentIndex.lumberjack ?? -1);
    const c = analyse([
      [
        act("lumberjack", "move_to", { x: 554, y: 380 }),
        say("miner", "greenvale_smith at (10,10)"),
        say("fisher", "I have 5 raw_shrimp"),
        say("cook", `lumberjack at (${lj?.x},${lj?.y})`),
        say("merchant", "greenvale_smith is at (538, 388)"),
      ],
      [
        say("miner", `lumberjack at (${lj?.x},${lj?.y})`),
        say("fisher", "gave 3 raw_shrimp to cook"),
        say("cook", "lumberjack at (554,380)"),
        say("merchant", "merchant at (530,386); i have 0 pine_log"),
      ],
    ]);
    expect(msg(c, "miner", 0)).toMatchObject({
      label: "factual_error",
      reason: "greenvale_smith is at (538,388)",
    });
    expect(msg(c, "fisher", 0)).toMatchObject({
      label: "factual_error",
      reason: "fisher holds 0 raw_shrimp",
    });
    expect(msg(c, "fisher", 1)).toMatchObject({ label: "factual_error" });
    // True when the lumberjack stood there (before its move), false when said in round 1.
    expect(msg(c, "cook", 0).label).toBe("stale");
    expect(msg(c, "miner", 1).label).toBe("stale");
    expect(msg(c, "miner", 1).reason).toContain("lumberjack is at (554,380)");
    expect(msg(c, "cook", 1).label).toBe("ok");
    expect(msg(c, "merchant", 0).label).toBe("ok");
    expect(msg(c, "merchant", 1).label).toBe("ok");
  });

  it("duplicate: information every recipient already heard (or said); not a first telling", () => {
    const c = analyse([
      [
        say("lumberjack", "need 2 pine_log for merchant at (530,386)", "cook"),
        say("merchant", "greenvale_smith at (538,388)"),
      ],
      [
        say("lumberjack", "need 2 pine_log for merchant at (530,386)"),
        say("miner", "greenvale_smith at (538,388)"),
      ],
      [say("miner", "Need 2 pine_log for merchant at (530,386).")],
    ]);
    expect(msg(c, "merchant", 0).label).toBe("ok");
    expect(msg(c, "lumberjack", 1).label).toBe("ok");
    expect(msg(c, "miner", 1)).toMatchObject({ label: "duplicate", types: ["duplicate"] });
    expect(msg(c, "miner", 2).label).toBe("duplicate");
  });

  it("premature completion: a goal said done and a complete call before it holds; not after", () => {
    const early = analyse([
      [say("fisher", "done gather 3 raw_shrimp")],
      [say("fisher", "delivered 3 raw_shrimp to cook")],
      [act("fisher", "complete", { summary: "done" })],
    ]);
    expect(msg(early, "fisher", 0)).toMatchObject({ label: "premature_completion" });
    expect(msg(early, "fisher", 0).reason).toContain("fisher gathered 0/3 raw_shrimp");
    expect(msg(early, "fisher", 1).label).toBe("premature_completion");
    expect(early.completions).toMatchObject([{ agent: "fisher", round: 2, premature: true }]);
    // The reference hands the shrimp over in round 7; said and completed afterwards, it holds.
    const ref = (spec.reference ?? []).slice(0, 8);
    const late = analyse([
      ...ref,
      [say("fisher", "done gather 3 raw_shrimp; gave 3 raw_shrimp to cook")],
      [act("fisher", "complete", { summary: "done" })],
    ]);
    expect(msg(late, "fisher", 8)).toMatchObject({ label: "ok", reason: "every line checked" });
    expect(late.completions).toMatchObject([{ agent: "fisher", round: 9, premature: false }]);
  });

  it("empty talk: no id, number, coordinate or request; a question or an action word is not", () => {
    const c = analyse([
      [
        say("lumberjack", "ok, sounds good!"),
        say("miner", "Thanks team"),
        say("fisher", "where greenvale_smith"),
        say("cook", "let us meet by the river"),
      ],
    ]);
    expect(msg(c, "lumberjack", 0)).toMatchObject({ label: "empty_talk", types: ["empty_talk"] });
    expect(msg(c, "miner", 0).label).toBe("empty_talk");
    expect(msg(c, "fisher", 0).label).toBe("ok");
    // Says something (a meeting) that no rule can check.
    expect(msg(c, "cook", 0)).toMatchObject({ label: "unchecked", types: [] });
    expect(c.labels).toMatchObject({ empty_talk: 2, ok: 1, unchecked: 1 });
  });

  it("logical inconsistency: the sender contradicts its own earlier line; a correction or another sender does not", () => {
    const c = analyse([
      [
        say("lumberjack", "I have 0 pine_log"),
        say("miner", "camp at (1,2)"),
        say("fisher", "done gather 3 raw_shrimp"),
        say("cook", "I have 4 raw_shrimp"),
        say("merchant", "greenvale_smith at (538,388)"),
      ],
      [
        say("lumberjack", "I have 2 pine_log"),
        say("miner", "camp at (50,60)"),
        say("fisher", "take gather 3 raw_shrimp"),
        say("cook", "I have 0 raw_shrimp; camp at (9,9)"),
        say("merchant", "greenvale_smith at (20,20)"),
      ],
    ]);
    expect(msg(c, "miner", 0).label).toBe("unchecked");
    expect(msg(c, "miner", 1)).toMatchObject({ label: "logical_inconsistency" });
    expect(msg(c, "miner", 1).reason).toContain("said camp at (1,2) before");
    expect(msg(c, "fisher", 1)).toMatchObject({ label: "logical_inconsistency" });
    // False and contradicting a true earlier count of an unchanged holding: both types.
    expect(msg(c, "lumberjack", 1)).toMatchObject({
      label: "factual_error",
      types: ["factual_error", "logical_inconsistency"],
    });
    expect(msg(c, "merchant", 1).types).toEqual(["factual_error", "logical_inconsistency"]);
    // A correction of a false count is no contradiction; another sender's camp is not the miner's.
    expect(msg(c, "cook", 0).label).toBe("factual_error");
    expect(msg(c, "cook", 1)).toMatchObject({ label: "unchecked", types: [] });
  });

  it("counts messages per agent and round, first-chat rounds, team and direct", () => {
    const c = analyse([
      [say("cook", "where greenvale_smith")],
      [],
      [say("cook", "hi", "merchant"), say("merchant", "hello")],
    ]);
    expect([c.messages, c.team, c.direct, c.per_round]).toEqual([3, 2, 1, [1, 0, 2]]);
    const cook = c.agents.find((a) => a.id === "cook");
    expect(cook).toMatchObject({
      messages: 2,
      team: 1,
      direct: 1,
      first_round: 0,
      per_round: { "0": 1, "2": 1 },
    });
    expect(c.agents.find((a) => a.id === "merchant")?.first_round).toBe(2);
    expect(c.agents.find((a) => a.id === "miner")?.first_round).toBeNull();
  });
});

describe("the model labeller hook", () => {
  it("labels only unchecked messages, marks them as the model's and recounts", async () => {
    const c = analyse([[say("lumberjack", "ok"), say("cook", "let us meet by the river")]]);
    const seen: string[] = [];
    const labeller: ChatLabeller = {
      label: async (ms) => {
        seen.push(...ms.map((m) => `${m.agent}: ${m.text} (${m.earlier.length} before)`));
        return ms.map(() => ({ label: "empty_talk" as const, reason: "vague" }));
      },
    };
    const texts = new Map(c.items.map((m, i) => [m.call, i === 0 ? "ok" : "let us meet by the river"]));
    const out = await labelUnchecked(c, texts, labeller);
    expect(seen).toEqual(["cook: let us meet by the river (1 before)"]);
    expect(out.items.map((m) => [m.label, m.by])).toEqual([
      ["empty_talk", "rules"],
      ["empty_talk", "model"],
    ]);
    expect(out.labels).toMatchObject({ empty_talk: 2, unchecked: 0 });
    expect(out.agents.find((a) => a.id === "cook")?.labels).toMatchObject({ empty_talk: 1, unchecked: 0 });
  });
});
