import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWorld } from "../../src/world/build/world.js";
import { loadWorldTask, worldTaskSession } from "../../src/world/task/index.js";
import { llmTeam } from "../../src/world/team/llm-team.js";
import type { TeamMember } from "../../src/world/team/types.js";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";
import { taskFile } from "./task-sample.js";

// The LLM team plays only the world's tools: a name the model makes up is a parse error and the
// turn waits, whether or not it happens to name a property every JavaScript object inherits.

describe("the LLM team and tool names outside the world's tools", () => {
  let llm: LoopbackLlm;
  beforeAll(async () => {
    llm = await startLoopbackLlm();
  });
  afterAll(async () => {
    await llm.close();
  });
  beforeEach(() => llm.reset());

  const world = createWorld();
  const spec = loadWorldTask(taskFile("warden-hunt"), world);
  const members: TeamMember[] = spec.team.map((m) => ({
    id: m.id,
    role: m.role,
    goal: m.goal,
    document: "",
  }));
  const agent = spec.team[0]?.id ?? "";

  function team() {
    return llmTeam.create({
      reference: [],
      seed: 1,
      options: { base_url: llm.url, max_retries: "0" },
      members,
      model: "openai-compatible:loop-model",
      signal: new AbortController().signal,
      log: () => {},
    });
  }

  for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "teleport"]) {
    it(`a call of "${name}" is not played: the turn waits and counts as a parse error`, async () => {
      const t = team();
      const obs = worldTaskSession(spec, world).observe(agent);
      llm.push(reply.tools([{ name, arguments: {} }]));
      await expect(t.act(agent, obs, 0)).resolves.toEqual({ tool: "wait", args: {} });
      expect(t.usage?.()).toMatchObject({ turns: 1, parseErrors: 1 });
    });
  }

  it("a world tool is played as the call the model made", async () => {
    const t = team();
    const obs = worldTaskSession(spec, world).observe(agent);
    llm.push(reply.tools([{ name: "wait", arguments: {} }]));
    await expect(t.act(agent, obs, 0)).resolves.toEqual({ tool: "wait", args: {} });
    expect(t.usage?.()).toMatchObject({ turns: 1, parseErrors: 0 });
  });
});
