import { describe, expect, it } from "vitest";
import { testRole } from "../../../test/world/kit.js";
import { createWorld } from "../build/world.js";
import { DEFAULT_SEED } from "../content/generate-content.js";
import { DEFAULT_RULES } from "../model/rules.js";
import type { WorldState } from "../model/types.js";
import { endRound } from "../state/round.js";
import { initialState } from "./init.js";
import { observe } from "./observe.js";
import { checkReplay } from "./replay.js";
import { Session } from "./session.js";
import { stateDigest } from "./snapshot.js";

const world = createWorld(DEFAULT_SEED);
const weak = testRole("t_weak", {});
// A field wolf (aggressive, aggro range 5, attack 4) on open meadow, and a passive field rat.
const WOLF = { id: "mob_268", x: 433, y: 320 };
const RAT = { id: "mob_263", x: 584, y: 367 };
const wolfIndex = world.spawnIndex.get(WOLF.id) ?? -1;
const ratIndex = world.spawnIndex.get(RAT.id) ?? -1;
const cheb = (a: { x: number; y: number }, b: { x: number; y: number }): number =>
  Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));

function stateWith(at: { x: number; y: number }, rules = DEFAULT_RULES): WorldState {
  return initialState(world, [{ id: "v", role: "t_weak", at }], 1, [weak], rules);
}

describe("mobs act each round", () => {
  it("an aggressive mob approaches the nearest agent in range by a bounded step, then strikes", () => {
    let state = stateWith({ x: WOLF.x + 4, y: WOLF.y });
    const first = endRound(world, state);
    const moved = first.events.find((e) => e.type === "mob_moved");
    expect(moved?.data).toMatchObject({ mob: WOLF.id, from: [WOLF.x, WOLF.y] });
    const wolf = first.state.mobs.get(wolfIndex);
    if (wolf === undefined) throw new Error("no wolf");
    expect(cheb(wolf, WOLF)).toBe(DEFAULT_RULES.mobStepTiles);
    // The agent's observation shows the mob where it now stands.
    const seen = observe(world, first.state, "v").nearby.find((t) => t.id === WOLF.id);
    expect([seen?.x, seen?.y, seen?.distance]).toEqual([wolf.x, wolf.y, 2]);
    state = first.state;
    const strikes = [];
    for (let r = 0; r < 6; r++) {
      const out = endRound(world, state);
      state = out.state;
      strikes.push(...out.events.filter((e) => e.type === "aggro"));
    }
    expect(strikes.length).toBeGreaterThan(0);
    const hurt = strikes.filter((e) => Number(e.data.damage) > 0).length;
    expect(hurt).toBeGreaterThan(0);
    const v = state.agents.get(0);
    expect(v?.hp).toBeLessThan(v?.maxHp ?? 0);
  });

  it("is pure and deterministic: the same state gives the same round, the input is untouched", () => {
    const state = stateWith({ x: WOLF.x + 1, y: WOLF.y });
    const before = stateDigest(state);
    const a = endRound(world, state);
    const b = endRound(world, state);
    expect(stateDigest(state)).toBe(before);
    expect(JSON.stringify(a.events)).toBe(JSON.stringify(b.events));
    expect(stateDigest(a.state)).toBe(stateDigest(b.state));
    expect(a.state.tick).toBe(state.tick + 1);
  });

  it("passive mobs stay put, and a mob never strays beyond its leash", () => {
    const byRat = endRound(world, stateWith({ x: RAT.x + 2, y: RAT.y }));
    expect(byRat.events).toEqual([]);
    expect(byRat.state.mobs.get(ratIndex)).toMatchObject({ x: RAT.x, y: RAT.y });
    let state = stateWith({ x: WOLF.x + 5, y: WOLF.y }, { ...DEFAULT_RULES, mobLeash: 1 });
    for (let r = 0; r < 4; r++) state = endRound(world, state).state;
    const wolf = state.mobs.get(wolfIndex);
    expect(wolf === undefined ? -1 : cheb(wolf, WOLF)).toBe(1);
  });
});

describe("death and regeneration", () => {
  it("a mob can kill an agent: it respawns at the spawn point and sits out respawnRounds rounds", () => {
    const s = new Session(
      world,
      [
        { id: "v", role: "t_weak", at: { x: WOLF.x + 1, y: WOLF.y } },
        { id: "w", role: "t_weak" },
      ],
      1,
      200,
      [weak],
    );
    const wait = { tool: "wait", args: {} };
    while (!s.done && !s.events.some((e) => e.type === "agent_defeated")) s.runRound(() => wait);
    const death = s.events.find((e) => e.type === "agent_defeated");
    expect(death).toMatchObject({ agent: "v", data: { by: WOLF.id } });
    const v = s.state.agents.get(0);
    expect([v?.x, v?.y, v?.hp, v?.deaths]).toEqual([
      world.pack.world.spawn.x,
      world.pack.world.spawn.y,
      v?.maxHp,
      1,
    ]);
    const diedIn = s.round - 1;
    expect(v?.downUntil).toBe(diedIn + 1 + DEFAULT_RULES.respawnRounds);
    for (let r = 0; r < DEFAULT_RULES.respawnRounds + 1; r++) s.runRound(() => wait);
    const turnsOfV = (round: number): number =>
      s.calls.filter((c) => c.round === round && c.agent === "v").length;
    for (let r = diedIn + 1; r <= diedIn + DEFAULT_RULES.respawnRounds; r++) expect(turnsOfV(r)).toBe(0);
    expect(turnsOfV(diedIn + DEFAULT_RULES.respawnRounds + 1)).toBe(1);
    expect(s.calls.filter((c) => c.agent === "w")).toHaveLength(s.round);
    expect(checkReplay(world, s.toRunFile(DEFAULT_SEED)).verdict).toBe("identical");
  });

  it("agents regain 1 hp every regenEveryRounds rounds, up to their maximum", () => {
    let state = stateWith(world.pack.world.spawn);
    const v = state.agents.get(0);
    if (v === undefined) throw new Error("no agent");
    state = { ...state, agents: state.agents.set(0, { ...v, hp: v.maxHp - 3 }) };
    const hpAfter = (rounds: number): number => {
      let s = state;
      for (let r = 0; r < rounds; r++) s = endRound(world, s).state;
      return s.agents.get(0)?.hp ?? -1;
    };
    const every = DEFAULT_RULES.regenEveryRounds;
    expect(hpAfter(every - 1)).toBe(v.maxHp - 3);
    expect(hpAfter(every)).toBe(v.maxHp - 2);
    expect(hpAfter(2 * every)).toBe(v.maxHp - 1);
    expect(hpAfter(10 * every)).toBe(v.maxHp);
  });
});
