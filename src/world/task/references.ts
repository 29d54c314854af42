import type { World } from "../build/world.js";
import { roleById } from "../model/roles.js";
import { walkable } from "../model/tilemap.js";
import { getWorldTool } from "../tools/registry.js";
import { hasWorldPredicate } from "./predicates.js";
import type { WorldPredicate, WorldTaskSpec } from "./schema.js";

export interface Problem {
  path: ReadonlyArray<string | number>;
  message: string;
}

/**
 * Cross-reference checks the schema cannot make: every item, role, mob, NPC, harvest point and
 * agent a task names must exist, placements must stand on walkable tiles, and the reference
 * solution must fit the team and the round budget. Returns the problems in file order.
 */
export function taskProblems(spec: WorldTaskSpec, world: World): Problem[] {
  const out: Problem[] = [];
  const bad = (path: Array<string | number>, message: string): void => {
    out.push({ path, message });
  };
  const agents = new Set<string>();
  const item = (path: Array<string | number>, id: string): void => {
    if (!world.item.has(id)) bad(path, `unknown item "${id}"`);
  };
  const agent = (path: Array<string | number>, id: string | undefined): void => {
    if (id !== undefined && !agents.has(id))
      bad(path, `unknown agent "${id}" (team: ${[...agents].join(", ")})`);
  };
  const tile = (path: Array<string | number>, x: number, y: number): void => {
    if (!walkable(world.map, x, y)) bad(path, `(${x}, ${y}) is not a walkable tile`);
  };

  spec.team.forEach((m, i) => {
    if (agents.has(m.id)) bad(["team", i, "id"], `agent id "${m.id}" is used twice`);
    agents.add(m.id);
    const role = roleById(m.role);
    if (role === undefined) bad(["team", i, "role"], `unknown role "${m.role}"`);
    if (m.spawn !== undefined) tile(["team", i, "spawn"], m.spawn.x, m.spawn.y);
    m.tools.forEach((t, j) => {
      if (getWorldTool(t) === undefined) bad(["team", i, "tools", j], unknownTool(t));
    });
    m.inventory.forEach((s, j) => {
      item(["team", i, "inventory", j, "item"], s.item);
    });
    for (const [slot, id] of Object.entries(m.equipment)) {
      if (id === undefined) continue;
      const def = world.item.get(id);
      if (def === undefined) bad(["team", i, "equipment", slot], `unknown item "${id}"`);
      else if (def.slot !== slot)
        bad(["team", i, "equipment", slot], `${id} is worn in ${def.slot ?? "no slot"}, not ${slot}`);
    }
  });

  // solo_role cuts the merged agent to the members of one role: a role nobody in the team plays
  // would leave it with no member at all, and without `merged` the param would be ignored.
  const solo = spec.params.solo_role;
  if (solo !== undefined) {
    const roles = [...new Set(spec.team.map((m) => m.role))];
    if (!roles.includes(solo))
      bad(["params", "solo_role"], `no team member has role "${solo}" (team roles: ${roles.join(", ")})`);
    else if (spec.params.merged !== true)
      bad(["params", "solo_role"], "needs merged: true (it chooses which members fill the merged agent)");
  }

  const placed = new Set<string>();
  spec.world.mobs.forEach((m, i) => {
    const path = ["world", "mobs", i];
    if (!world.mob.has(m.mob)) bad([...path, "mob"], `unknown mob "${m.mob}"`);
    if (world.spawnIndex.has(m.id) || placed.has(m.id)) bad([...path, "id"], `mob id "${m.id}" is taken`);
    placed.add(m.id);
    tile(path, m.x, m.y);
  });
  spec.world.depleted_nodes.forEach((d, i) => {
    if (d.node !== undefined && !world.nodeIndex.has(d.node))
      bad(["world", "depleted_nodes", i, "node"], `unknown harvest point "${d.node}"`);
    if (d.resource !== undefined && !world.resource.has(d.resource))
      bad(["world", "depleted_nodes", i, "resource"], `unknown resource "${d.resource}"`);
  });

  const predicate = (p: WorldPredicate, path: Array<string | number>): void => {
    if ("all" in p) {
      p.all.forEach((q, i) => {
        predicate(q, [...path, "all", i]);
      });
    } else if ("any" in p) {
      p.any.forEach((q, i) => {
        predicate(q, [...path, "any", i]);
      });
    } else if ("not" in p) predicate(p.not, [...path, "not"]);
    else if ("custom" in p) {
      if (!hasWorldPredicate(p.custom))
        bad([...path, "custom"], `no custom predicate "${p.custom}" is registered`);
    } else if ("killed" in p) {
      const { mob } = p.killed;
      if (!world.mob.has(mob) && !world.spawnIndex.has(mob) && !placed.has(mob))
        bad([...path, "killed", "mob"], `unknown mob "${mob}" (not a mob kind, spawn or placed mob)`);
      agent([...path, "killed", "agent"], p.killed.agent);
    } else if ("visited" in p) agent([...path, "visited", "agent"], p.visited.agent);
    else if ("delivered" in p) {
      const d = p.delivered;
      item([...path, "delivered", "item"], d.item);
      agent([...path, "delivered", "to"], d.to);
      agent([...path, "delivered", "from"], d.from);
      if (d.npc !== undefined && !world.npc.has(d.npc))
        bad([...path, "delivered", "npc"], `unknown NPC "${d.npc}"`);
    } else if ("holds" in p || "equipped" in p || "crafted" in p || "gathered" in p) {
      const [key, body] = Object.entries(p)[0] as [string, { item: string; agent?: string }];
      item([...path, key, "item"], body.item);
      agent([...path, key, "agent"], body.agent);
    }
  };
  predicate(spec.success, ["success"]);
  const ids = new Set<string>();
  spec.checkpoints.forEach((c, i) => {
    if (ids.has(c.id)) bad(["checkpoints", i, "id"], `checkpoint id "${c.id}" is used twice`);
    ids.add(c.id);
    predicate(c.predicate, ["checkpoints", i, "predicate"]);
  });

  const reference = spec.reference ?? [];
  if (reference.length > spec.max_rounds)
    bad(["reference"], `${reference.length} rounds, more than max_rounds (${spec.max_rounds})`);
  const order = spec.team.map((m) => m.id);
  reference.forEach((round, r) => {
    let last = -1;
    round.forEach((c, j) => {
      const path = ["reference", r, j];
      const at = order.indexOf(c.agent);
      if (at < 0) {
        agent([...path, "agent"], c.agent);
        return;
      }
      if (at <= last)
        bad(
          [...path, "agent"],
          `${c.agent} is out of turn order (each agent at most once a round, in team order)`,
        );
      last = Math.max(last, at);
      const def = getWorldTool(c.call.tool);
      if (def === undefined) {
        bad([...path, "call", "tool"], unknownTool(c.call.tool));
        return;
      }
      const args = def.args.safeParse(c.call.args);
      if (!args.success) {
        const issue = args.error.issues[0];
        bad([...path, "call", "args", ...(issue?.path ?? []).map(String)], issue?.message ?? "invalid");
        return;
      }
      const a = c.call.args;
      const argPath = (key: string): Array<string | number> => [...path, "call", "args", key];
      const str = (key: string): string | undefined => (typeof a[key] === "string" ? a[key] : undefined);
      const tool = c.call.tool;
      if (["craft_item", "equip_item", "use_item", "transfer_items", "trade_npc"].includes(tool)) {
        const it = str("item");
        if (it !== undefined) item(argPath("item"), it);
      }
      if (tool === "transfer_items" || tool === "chat") agent(argPath("to"), str("to"));
      const npc = str("npc");
      if (tool === "trade_npc" && npc !== undefined && !world.npc.has(npc))
        bad(argPath("npc"), `unknown NPC "${npc}"`);
      const target = str("target") ?? "";
      if (tool === "harvest_resource" && !world.nodeIndex.has(target) && !world.resource.has(target))
        bad(argPath("target"), `unknown harvest point or resource "${target}"`);
      if (
        tool === "attack_entity" &&
        !world.mob.has(target) &&
        !world.spawnIndex.has(target) &&
        !placed.has(target)
      )
        bad(argPath("target"), `unknown mob "${target}"`);
      const portal = str("portal");
      if (tool === "enter_portal" && portal !== undefined && !world.portal.has(portal))
        bad(argPath("portal"), `unknown portal "${portal}"`);
    });
  });
  return out;
}

function unknownTool(name: string): string {
  return `unknown world tool "${name}" (built in or registered by a plugin before the task loads)`;
}
