import type { Slot } from "../model/schema.js";
import type { ToolArgs } from "../model/tool-args.js";
import type { AgentState } from "../model/types.js";
import type { Draft } from "../state/draft.js";
import { ToolFailure } from "../state/draft.js";
import { addNewLot, dropLot, takeItems } from "../state/inventory.js";
import { defeat } from "../state/round.js";
import { byDistance, connected, equipmentStats, inView, mobAlive, mobAt, travel } from "./travel.js";

const MAX_EXCHANGES = 400;

/** Approach a monster, trade blows until one side falls, then collect the drops. */
export function attackEntity(
  d: Draft,
  args: ToolArgs<"attack_entity">,
): { message: string; defeated: boolean } {
  const { world } = d;
  let agent = d.agent();
  const fixed = world.spawnIndex.get(args.target);
  let index: number | undefined;
  const radius = d.s.rules.viewRadius;
  if (fixed !== undefined) {
    if (!mobAlive(d, fixed)) throw new ToolFailure("target_gone", `${args.target} is dead (it will respawn)`);
    const at = mobAt(d, fixed);
    if (!inView(d, agent, at.x, at.y))
      throw new ToolFailure("not_in_view", `${args.target} is not within your view (${radius} tiles)`);
    if (!connected(d, agent, at.x, at.y))
      throw new ToolFailure("unreachable", `${args.target} cannot be reached`);
    index = fixed;
  } else {
    if (!world.mob.has(args.target))
      throw new ToolFailure("unknown_target", `"${args.target}" is neither a mob id nor a mob kind`);
    // Only what the agent can see is a candidate: the living ones of the kind within its view.
    const seen = (world.spawnsOf.get(args.target) ?? [])
      .filter((i) => mobAlive(d, i))
      .map((i): [number, { x: number; y: number }] => [i, mobAt(d, i)])
      .filter(([, p]) => inView(d, agent, p.x, p.y));
    if (seen.length === 0)
      throw new ToolFailure("not_in_view", `no living ${args.target} within your view (${radius} tiles)`);
    index = byDistance(
      agent,
      seen.filter(([, p]) => connected(d, agent, p.x, p.y)),
    )[0]?.[0];
    if (index === undefined) throw new ToolFailure("unreachable", `no living ${args.target} can be reached`);
  }
  const spawn = world.pack.spawns[index];
  const def = spawn === undefined ? undefined : world.mob.get(spawn.mob);
  if (spawn === undefined || def === undefined)
    throw new ToolFailure("unknown_target", `no mob ${args.target}`);
  const pos = mobAt(d, index);
  agent = travel(d, agent, pos.x, pos.y);
  const state = d.s.mobs.get(index) ?? { hp: def.hp, respawnAt: -1 };
  let mobHp = state.respawnAt >= 0 ? def.hp : state.hp; // a respawned mob is back at full health
  const gear = equipmentStats(d, agent);
  const attack = d.levelOf(agent, "attack") + gear.attack;
  const defence = d.levelOf(agent, "defence") + gear.defence;
  let dealt = 0;
  let taken = 0;
  let exchanges = 0;
  while (mobHp > 0 && agent.hp - taken > 0 && exchanges < MAX_EXCHANGES) {
    exchanges++;
    if (d.rng.next() < attack / (attack + def.defence + 1)) {
      const dmg = Math.min(mobHp, 1 + d.rng.int(0, Math.floor(attack / 5)));
      mobHp -= dmg;
      dealt += dmg;
    }
    if (mobHp > 0 && d.rng.next() < def.attack / (def.attack + defence + 1))
      taken += 1 + d.rng.int(0, Math.floor(def.attack / 6));
  }
  const killed = mobHp <= 0;
  d.emit("fight", {
    mob: spawn.id,
    kind: def.id,
    exchanges,
    dealt,
    taken: Math.min(taken, agent.hp),
    killed,
  });
  if (!killed) {
    d.s.mobs = d.s.mobs.set(index, { hp: mobHp, respawnAt: -1, x: pos.x, y: pos.y });
    if (agent.hp - taken > 0) {
      d.putAgent({ ...agent, hp: agent.hp - taken });
      return { message: `${def.name} still stands after ${exchanges} exchanges`, defeated: false };
    }
    // The fight's effects stand (the mob keeps its wounds, the agent is down): see docs/world.md.
    const down = defeat(world, d.s, agent);
    d.emit("agent_defeated", { by: spawn.id, respawn: [down.x, down.y], until: down.downUntil });
    d.putAgent(down);
    return {
      message: `defeated by ${def.name}; you wake up at (${down.x}, ${down.y}) and sit out until tick ${down.downUntil}`,
      defeated: true,
    };
  }
  agent = { ...agent, hp: agent.hp - taken };
  // A killed mob goes home to wait for its respawn.
  d.s.mobs = d.s.mobs.set(index, {
    hp: def.hp,
    respawnAt: d.s.tick + def.respawnTicks,
    x: spawn.x,
    y: spawn.y,
  });
  const killSeq = d.emit("killed", { mob: spawn.id, kind: def.id, boss: def.boss });
  agent = d.gainXp(agent, "attack", 4 + def.level * 2);
  agent = d.gainXp(agent, "defence", 2 + def.level);
  const loot: string[] = [];
  const total = def.drops.reduce((s, x) => s + x.weight, 0);
  for (let r = 0; r < def.dropRolls && total > 0; r++) {
    const pick = d.rng.next() * total;
    let acc = 0;
    const drop =
      def.drops.find((x) => {
        acc += x.weight;
        return pick < acc;
      }) ?? def.drops[def.drops.length - 1];
    if (drop === undefined) continue;
    const qty = d.rng.int(drop.min, drop.max);
    const seq = d.reserve();
    let where = "inventory";
    if (args.loot === false) {
      const lot = d.newLot(drop.item, qty, "loot", seq, [], "ground");
      where = dropLot(d, lot.id, pos.x, pos.y);
      d.emit("loot", { item: drop.item, qty, lot: lot.id, ground: where, from: killSeq }, seq);
    } else {
      const added = addNewLot(d, agent, drop.item, qty, "loot", seq, []);
      agent = added.agent;
      d.emit("loot", { item: drop.item, qty, lot: added.lot.id, ground: added.onGround, from: killSeq }, seq);
    }
    loot.push(`${qty} ${drop.item}`);
  }
  d.putAgent(agent);
  return {
    message: `killed ${def.name}${loot.length > 0 ? `; dropped ${loot.join(", ")}` : ""}`,
    defeated: false,
  };
}

export function equipItem(d: Draft, args: ToolArgs<"equip_item">): string {
  let agent = d.agent();
  const def = d.world.item.get(args.item);
  if (def === undefined) throw new ToolFailure("unknown_target", `no item "${args.item}"`);
  if (def.slot === undefined)
    throw new ToolFailure("not_equippable", `${def.name} cannot be worn or wielded`);
  const skill = def.levelSkill ?? "attack";
  if (d.levelOf(agent, skill) < def.level) {
    throw new ToolFailure(
      "missing_skill",
      `${def.name} needs ${skill} ${def.level} (you have ${d.levelOf(agent, skill)})`,
    );
  }
  const taken = takeItems(d, agent, def.id, 1);
  agent = taken.agent;
  const part = taken.parts[0];
  if (part === undefined) throw new ToolFailure("missing_items", `no ${def.id}`);
  const seq = d.reserve();
  let lotId = part.lot;
  const source = d.lot(part.lot);
  if (source.qty > 0) {
    // The lot held more than one: the equipped unit becomes its own lot.
    lotId = d.newLot(def.id, 1, "split", seq, [{ lot: part.lot, qty: 1 }], `equipped:${agent.id}`).id;
  } else d.putLot({ ...source, qty: 1, holder: `equipped:${agent.id}` });
  const slot: Slot = def.slot;
  const previous = agent.equipment[slot];
  const inventory = [...agent.inventory];
  if (previous !== undefined) {
    d.putLot({ ...d.lot(previous), holder: `agent:${agent.id}` });
    inventory.push(previous);
  }
  d.putAgent({ ...agent, inventory, equipment: { ...agent.equipment, [slot]: lotId } });
  d.emit("equipped", { item: def.id, slot, lot: lotId, replaced: previous ?? null }, seq);
  return `equipped ${def.name} (${slot})`;
}

export function useItem(d: Draft, args: ToolArgs<"use_item">): string {
  const agent = d.agent();
  const def = d.world.item.get(args.item);
  if (def === undefined) throw new ToolFailure("unknown_target", `no item "${args.item}"`);
  if (def.heal === undefined) throw new ToolFailure("not_usable", `${def.name} cannot be eaten or drunk`);
  const taken = takeItems(d, agent, def.id, 1);
  const hp = Math.min(agent.maxHp, agent.hp + def.heal);
  d.putAgent({ ...taken.agent, hp });
  d.emit("used", { item: def.id, healed: hp - agent.hp, hp, lots: taken.parts.map((p) => p.lot) });
  return `used ${def.name}: hp ${hp}/${agent.maxHp}`;
}

export function maxHpFor(agent: Pick<AgentState, "skills">): number {
  return 20 + 2 * (agent.skills.defence?.level ?? 1);
}
