import { UserError } from "../../../core/index.js";
import type { TeamAgentDefinition } from "../types.js";
import { goalKey, goalsOf } from "./goals.js";
import { knowledgeOf } from "./knowledge.js";
import { ScriptedMember } from "./member.js";

/**
 * The reference solver: a cooperative team without a model that plans from the task's success
 * predicate and checkpoints (never its reference calls) and from what each member's role
 * document says, asking for and announcing hand-overs in chat (see docs/world.md, "The scripted
 * team"). Deterministic: it draws no random numbers.
 */
export const scriptedTeam: TeamAgentDefinition = {
  name: "scripted",
  description: "plans from the goals and role documents, talks and hands items over (the reference solver)",
  create: (ctx) => {
    const view = ctx.task;
    if (view === undefined)
      throw new UserError("team agent scripted plays world tasks only (it needs the task view)");
    const w = view.world;
    const { goals, unplanned } = goalsOf({
      success: view.success,
      checkpoints: view.checkpoints,
      start: (id) => {
        const a = view.agents.find((x) => x.id === id);
        return a === undefined ? w.pack.world.spawn : { x: a.x, y: a.y };
      },
      runId: (id) => (view.merged ? (view.agents[0]?.id ?? id) : id),
      kindOf: (mob) => view.placedMobs.find((p) => p.id === mob)?.mob ?? mob,
      merged: view.merged,
    });
    for (const u of unplanned) ctx.log(`scripted team: cannot plan for ${u}; ignored`);
    ctx.log(`scripted team: goals ${goals.map(goalKey).join("; ")}`);
    const members = new Map<string, ScriptedMember>();
    for (const m of ctx.members) {
      const start = view.agents.find((a) => a.id === m.id) ?? {
        x: w.pack.world.spawn.x,
        y: w.pack.world.spawn.y,
      };
      const role = view.roles.get(m.role);
      if (role === undefined)
        ctx.log(`scripted team: ${m.id} is told role "${m.role}", which no document describes`);
      const know = knowledgeOf(w, role, start, m.document !== "");
      members.set(m.id, new ScriptedMember(m.id, know, view, m.goal, goals, ctx.log));
    }
    return {
      act: async (agentId, obs) => {
        const m = members.get(agentId);
        if (m === undefined) throw new UserError(`scripted team: no member ${agentId}`);
        return m.act(obs);
      },
    };
  },
};
