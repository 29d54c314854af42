import { Rng } from "../../core/index.js";
import type { World } from "../build/world.js";
import type { Skill } from "../model/schema.js";
import type {
  AgentState,
  JsonValue,
  Lot,
  LotOriginKind,
  ToolErrorCode,
  WorldEvent,
  WorldState,
} from "../model/types.js";

/**
 * Thrown inside a tool to fail it; the step then discards every change the tool made. Not an
 * Error subclass on purpose: failed calls are routine and capturing a stack for each is costly.
 */
export class ToolFailure {
  constructor(
    readonly code: ToolErrorCode,
    readonly message: string,
  ) {}
}

/**
 * The working copy of one step. It starts as a shallow copy of the input state and replaces
 * (never mutates) records and persistent vectors, so the input state stays valid.
 */
export class Draft {
  s: WorldState;
  readonly rng: Rng;
  private readonly events: WorldEvent[] = [];
  actionSeq = -1;
  /** Tiles walked so far in this call (all walking of one call shares `rules.maxMoveTiles`). */
  walked = 0;

  constructor(
    readonly world: World,
    base: WorldState,
    readonly actor: string,
  ) {
    this.s = { ...base };
    this.rng = Rng.fromState(base.rng);
  }

  agentIdx(id: string): number {
    const i = this.s.agentIndex[id];
    if (i === undefined) throw new ToolFailure("unknown_target", `no agent "${id}"`);
    return i;
  }

  agent(id: string = this.actor): AgentState {
    const a = this.s.agents.get(this.agentIdx(id));
    if (a === undefined) throw new ToolFailure("unknown_target", `no agent "${id}"`);
    return a;
  }

  putAgent(a: AgentState): void {
    this.s.agents = this.s.agents.set(this.agentIdx(a.id), a);
  }

  lot(id: number): Lot {
    const l = this.s.lots.get(id);
    if (l === undefined) throw new ToolFailure("target_gone", `no lot ${id}`);
    return l;
  }

  putLot(l: Lot): void {
    this.s.lots = this.s.lots.set(l.id, l);
  }

  newLot(
    item: string,
    qty: number,
    kind: LotOriginKind,
    event: number,
    from: Lot["from"],
    holder: string,
  ): Lot {
    const lot: Lot = {
      id: this.s.lots.length,
      item,
      created: qty,
      qty,
      origin: { event, kind, by: this.actor },
      from,
      transfers: [],
      holder,
    };
    this.s.lots = this.s.lots.push(lot);
    return lot;
  }

  /** Reserves the next event number (so lots can name the event before it is emitted). */
  reserve(): number {
    return this.s.seq++;
  }

  emit(type: string, data: WorldEvent["data"], seq: number = this.reserve()): number {
    this.events.push({ seq, tick: this.s.tick, agent: this.actor, type, action: this.actionSeq, data });
    return seq;
  }

  /** A skill the agent's role does not have is level 0: it cannot be used at all. */
  levelOf(agent: AgentState, skill: Skill): number {
    return agent.skills[skill]?.level ?? 0;
  }

  /** Adds experience; every `50 × level` xp raises the level by one (to 99). */
  gainXp(agent: AgentState, skill: Skill, xp: number): AgentState {
    const cur = agent.skills[skill] ?? { level: 1, xp: 0 };
    let { level } = cur;
    let total = cur.xp + xp;
    while (level < 99 && total >= level * 50) {
      total -= level * 50;
      level++;
    }
    if (level > cur.level) this.emit("level_up", { skill, level });
    return { ...agent, skills: { ...agent.skills, [skill]: { level, xp: total } } };
  }

  finish(): { state: WorldState; events: WorldEvent[] } {
    this.s.rng = this.rng.state();
    const events = [...this.events].sort((a, b) => a.seq - b.seq);
    return { state: this.s, events };
  }
}

export function json(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}
