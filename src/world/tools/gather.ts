import type { ToolArgs } from "../model/tool-args.js";
import type { AgentState } from "../model/types.js";
import type { Draft } from "../state/draft.js";
import { ToolFailure } from "../state/draft.js";
import { addNewLot, hasRoom } from "../state/inventory.js";
import { byDistance, connected, inView, travel } from "./travel.js";

export function harvestResource(d: Draft, args: ToolArgs<"harvest_resource">): string {
  const { world } = d;
  const fixed = world.nodeIndex.get(args.target);
  const node = fixed === undefined ? undefined : world.pack.nodes[fixed];
  const resId = node?.resource ?? args.target;
  const res = world.resource.get(resId);
  if (res === undefined)
    throw new ToolFailure(
      "unknown_target",
      `"${args.target}" is neither a harvest point nor a resource kind`,
    );
  let agent = d.agent();
  if (d.levelOf(agent, res.skill) < res.level) {
    throw new ToolFailure(
      "missing_skill",
      `${res.name} needs ${res.skill} ${res.level} (you have ${d.levelOf(agent, res.skill)})`,
    );
  }
  if (res.tool !== undefined && !hasTool(d, agent, res.skill)) {
    throw new ToolFailure("missing_tool", `${res.name} needs a ${res.tool} (carried or equipped)`);
  }
  const wanted = args.count ?? 1;
  let got = 0;
  for (let k = 0; k < wanted; k++) {
    let index: number | undefined;
    if (fixed !== undefined && k === 0) {
      if (!inView(d, agent, node?.x ?? 0, node?.y ?? 0))
        throw new ToolFailure(
          "not_in_view",
          `${args.target} is not within your view (${d.s.rules.viewRadius} tiles)`,
        );
      if ((d.s.nodes.get(fixed) ?? 0) > d.s.tick)
        throw new ToolFailure("target_gone", `${args.target} is depleted`);
      if (!connected(d, agent, node?.x ?? 0, node?.y ?? 0))
        throw new ToolFailure("unreachable", `${args.target} cannot be reached`);
      index = fixed;
    } else {
      // Candidates are the points the agent can see from where it stands now.
      const seen = (world.nodesOf.get(res.id) ?? [])
        .map((i): [number, { x: number; y: number }] => [i, world.pack.nodes[i] ?? { x: 0, y: 0 }])
        .filter(([, p]) => inView(d, agent, p.x, p.y));
      const options = seen
        .filter(([i]) => (d.s.nodes.get(i) ?? 0) <= d.s.tick)
        .filter(([, p]) => connected(d, agent, p.x, p.y));
      index = byDistance(agent, options)[0]?.[0];
      if (index === undefined) {
        if (got > 0) break;
        if (seen.length === 0)
          throw new ToolFailure(
            "not_in_view",
            `no ${res.name} within your view (${d.s.rules.viewRadius} tiles)`,
          );
        throw new ToolFailure("target_gone", `no ${res.name} in view is available and reachable right now`);
      }
    }
    if (!hasRoom(d, agent, res.yield.item, res.yield.qty)) {
      if (got > 0) break;
      throw new ToolFailure("inventory_full", `no room for ${res.yield.item}`);
    }
    const at = world.pack.nodes[index];
    if (at === undefined) break;
    try {
      agent = travel(d, agent, at.x, at.y);
    } catch (e) {
      // Out of walking budget after some harvests: keep what was gathered.
      if (got > 0 && e instanceof ToolFailure && e.code === "too_far") break;
      throw e;
    }
    const seq = d.reserve();
    const added = addNewLot(d, agent, res.yield.item, res.yield.qty, "harvest", seq, []);
    agent = d.gainXp(added.agent, res.skill, res.xp);
    d.s.nodes = d.s.nodes.set(index, d.s.tick + res.respawnTicks);
    d.emit(
      "harvested",
      { node: at.id, resource: res.id, item: res.yield.item, qty: res.yield.qty, lot: added.lot.id },
      seq,
    );
    got += res.yield.qty;
  }
  d.putAgent(agent);
  return `harvested ${got} ${res.yield.item}`;
}

function hasTool(d: Draft, agent: AgentState, skill: string): boolean {
  const lots = [...agent.inventory, ...Object.values(agent.equipment)];
  return lots.some((id) => d.world.item.get(d.lot(id).item)?.toolFor === skill);
}

export function pickupItem(d: Draft, args: ToolArgs<"pickup_item">): string {
  let agent = d.agent();
  const entries: Array<[number, { x: number; y: number; id: string; lot: number }]> = [];
  d.s.ground.forEach((g, i) => {
    if (g === null) return;
    if (g.id === args.target || d.lot(g.lot).item === args.target) entries.push([i, g]);
  });
  if (entries.length === 0) {
    const code = /^g\d+$/.test(args.target) ? "target_gone" : "unknown_target";
    throw new ToolFailure(code, `nothing called "${args.target}" lies on the ground`);
  }
  const seen = entries.filter(([, g]) => inView(d, agent, g.x, g.y));
  if (seen.length === 0)
    throw new ToolFailure(
      "not_in_view",
      `no "${args.target}" on the ground within your view (${d.s.rules.viewRadius} tiles)`,
    );
  const reachable = byDistance(agent, seen).filter(([, g]) => connected(d, agent, g.x, g.y));
  const pick = reachable[0];
  if (pick === undefined) throw new ToolFailure("unreachable", `"${args.target}" cannot be reached`);
  const [index, g] = pick;
  const lot = d.lot(g.lot);
  if (!hasRoom(d, agent, lot.item, lot.qty))
    throw new ToolFailure("inventory_full", `no room for ${lot.qty} ${lot.item}`);
  agent = travel(d, agent, g.x, g.y);
  const seq = d.reserve();
  d.putLot({
    ...lot,
    holder: `agent:${agent.id}`,
    transfers: [...lot.transfers, { event: seq, from: "ground", to: agent.id, qty: lot.qty }],
  });
  d.s.ground = d.s.ground.set(index, null);
  d.putAgent({ ...agent, inventory: [...agent.inventory, lot.id] });
  d.emit("picked_up", { ground: g.id, item: lot.item, qty: lot.qty, lot: lot.id }, seq);
  return `picked up ${lot.qty} ${lot.item}`;
}
