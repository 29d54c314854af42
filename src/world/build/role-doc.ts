import type { RoleDef } from "../model/roles.js";
import type { Skill } from "../model/schema.js";
import type { World } from "./world.js";

const GATHER: Record<string, Skill> = {
  tree: "woodcutting",
  rock: "mining",
  fishing_spot: "fishing",
  forage: "foraging",
};

/**
 * The role document: what this role alone is told, complete (nothing is cut): every recipe of
 * its crafting skills (those above its level marked), every resource of its gathering skills with
 * the nearest points, and (for fighters) every monster of every biome. Roles that know NPCs get
 * every shop, trader, quest and banker. Other roles do not see it: information is asymmetric.
 */
export function roleDocument(world: World, role: RoleDef, from = world.pack.world.spawn): string {
  const lines: string[] = [`# ${role.name}`, "", role.summary, ""];
  const skills = Object.entries(role.skills) as Array<[Skill, number]>;
  const level = (s: Skill): number => role.skills[s] ?? 0;
  lines.push(`Skills: ${skills.map(([s, l]) => `${s} ${l}`).join(", ") || "none"}.`);
  lines.push("A skill not listed is level 0: you cannot use it at all. Levels rise with practice.");
  lines.push(`Tools you may use: ${role.tools.join(", ")}.`, "");
  const crafts = role.tools.includes("craft_item");
  const known = crafts ? world.pack.recipes.filter((r) => level(r.skill) > 0) : [];
  if (known.length > 0) {
    lines.push(`## Recipes (${known.length}, all of your crafting skills)`);
    for (const r of known) {
      const inputs = r.inputs.map((i) => `${i.qty} ${i.item}`).join(" + ");
      const gap = r.level > level(r.skill) ? `; you need ${r.level}` : "";
      lines.push(
        `- ${r.output.qty} ${r.output.item} ← ${inputs} (${r.skill} ${r.level}${r.station ? `, at a ${r.station}` : ""}${gap})`,
      );
    }
    const stations = [...new Set(known.map((r) => r.station).filter((s) => s !== undefined))];
    for (const kind of stations) {
      const near = nearest(world.stationsOf.get(kind) ?? [], from, 2);
      lines.push(`- nearest ${kind}: ${near.map((s) => `${s.id} (${s.x}, ${s.y})`).join("; ")}`);
    }
    lines.push("");
  }
  const gathers = role.tools.includes("harvest_resource");
  const gatherable = gathers
    ? world.pack.resources.filter((r) => GATHER[r.kind] === r.skill && level(r.skill) > 0)
    : [];
  if (gatherable.length > 0) {
    lines.push(`## Resources you can gather (${gatherable.length})`);
    for (const r of gatherable) {
      const nodes = (world.nodesOf.get(r.id) ?? [])
        .map((i) => world.pack.nodes[i])
        .filter((n) => n !== undefined);
      const near = nearest(nodes, from, 3);
      const where = near.map((n) => `${n.id} (${n.x}, ${n.y})`).join("; ");
      const gap = r.level > level(r.skill) ? `; you need ${r.level}` : "";
      lines.push(
        `- ${r.name} → ${r.yield.qty} ${r.yield.item} (${r.skill} ${r.level}${r.tool ? `, ${r.tool}` : ""}${gap}): ${where}`,
      );
    }
    lines.push("");
  }
  if (role.knows.monsters) lines.push(...monsterSection(world));
  if (role.knows.npcs === true) lines.push(...npcSection(world));
  return lines.join("\n");
}

function monsterSection(world: World): string[] {
  const lines = [`## Monsters (${world.pack.mobs.length}, every biome, easiest biome first)`];
  const biomes = [...world.pack.biomes].sort((a, b) => a.levelMin - b.levelMin);
  for (const biome of biomes) {
    lines.push(`### ${biome.name} (${biome.id}, levels ${biome.levelMin}–${biome.levelMax})`);
    for (const m of world.pack.mobs.filter((x) => x.biome === biome.id)) {
      const drops = m.drops.map((d) => d.item).join(", ");
      lines.push(
        `- ${m.id}: ${m.name}${m.boss ? " (boss)" : ""}, level ${m.level}, hp ${m.hp}, attack ${m.attack}, defence ${m.defence}${m.aggressive ? `, aggressive (range ${m.aggroRange})` : ""}; drops ${drops}`,
      );
    }
  }
  lines.push("");
  return lines;
}

function npcSection(world: World): string[] {
  const lines = [`## NPCs (${world.pack.npcs.length})`];
  const stack = (x: { item: string; qty: number }): string => `${x.qty} ${x.item}`;
  for (const n of world.pack.npcs) {
    lines.push(`- ${n.id}: ${n.name}, ${n.role.replace("_", " ")} at (${n.x}, ${n.y})`);
    for (const e of n.store ?? [])
      lines.push(
        `  - sells ${e.item} for ${e.price} (stock ${e.stock})${e.buy === undefined ? "" : `; buys it for ${e.buy}`}`,
      );
    for (const t of n.trades ?? []) lines.push(`  - exchanges ${stack(t.give)} for ${stack(t.get)}`);
    if (n.quest !== undefined) {
      lines.push(`  - quest: ${n.quest.text}`);
      n.quest.stages.forEach((st, k) => {
        lines.push(
          `  - stage ${k + 1}: bring ${st.ask.map(stack).join(" + ")}; reward ${st.reward.map(stack).join(" + ")}`,
        );
      });
    }
    if (n.role === "banker")
      lines.push("  - keeps your team's bank (deposit, withdraw; the same at every banker)");
  }
  lines.push("");
  return lines;
}

function nearest<T extends { x: number; y: number }>(
  list: readonly T[],
  from: { x: number; y: number },
  n: number,
): T[] {
  const d = (p: T): number => Math.abs(p.x - from.x) + Math.abs(p.y - from.y);
  return [...list].sort((a, b) => d(a) - d(b)).slice(0, n);
}
