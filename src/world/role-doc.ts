import type { Skill } from "./content/schema.js";
import type { RoleDef } from "./roles.js";
import type { World } from "./world.js";

const GATHER: Record<string, Skill> = {
  tree: "woodcutting",
  rock: "mining",
  fishing_spot: "fishing",
  forage: "foraging",
};

/**
 * The role document: what this role alone is told. Recipes of its skills it can make, where the
 * nearest harvest points it can use are, and (for fighters) monster facts. Other roles do not
 * see it, which is what makes information asymmetric.
 */
export function roleDocument(world: World, role: RoleDef, from = world.pack.world.spawn): string {
  const lines: string[] = [`# ${role.name}`, "", role.summary, ""];
  const skills = Object.entries(role.skills) as Array<[Skill, number]>;
  lines.push(`Skills: ${skills.map(([s, l]) => `${s} ${l}`).join(", ") || "none beyond level 1"}.`);
  lines.push(`Tools you may use: ${role.tools.join(", ")}.`, "");
  const known = world.pack.recipes.filter((r) => (role.skills[r.skill] ?? 0) >= r.level);
  if (known.length > 0) {
    lines.push("## Recipes you can make");
    for (const r of known.slice(0, 60)) {
      const inputs = r.inputs.map((i) => `${i.qty} ${i.item}`).join(" + ");
      lines.push(
        `- ${r.output.qty} ${r.output.item} ← ${inputs} (${r.skill} ${r.level}${r.station ? `, at a ${r.station}` : ""})`,
      );
    }
    const stations = [...new Set(known.map((r) => r.station).filter((s) => s !== undefined))];
    for (const kind of stations) {
      const near = nearest(world.stationsOf.get(kind) ?? [], from, 2);
      lines.push(`- nearest ${kind}: ${near.map((s) => `${s.id} (${s.x}, ${s.y})`).join("; ")}`);
    }
    lines.push("");
  }
  const gatherable = world.pack.resources.filter(
    (r) => GATHER[r.kind] === r.skill && (role.skills[r.skill] ?? 0) >= r.level,
  );
  if (gatherable.length > 0) {
    lines.push("## Resources you can gather");
    for (const r of gatherable) {
      const nodes = (world.nodesOf.get(r.id) ?? [])
        .map((i) => world.pack.nodes[i])
        .filter((n) => n !== undefined);
      const near = nearest(nodes, from, 3);
      const where = near.map((n) => `${n.id} (${n.x}, ${n.y})`).join("; ");
      lines.push(
        `- ${r.name} → ${r.yield.qty} ${r.yield.item} (${r.skill} ${r.level}${r.tool ? `, ${r.tool}` : ""}): ${where}`,
      );
    }
    lines.push("");
  }
  if (role.knows.monsters) {
    lines.push("## Monsters");
    const biomes = [...world.pack.biomes].sort((a, b) => a.levelMin - b.levelMin).slice(0, 3);
    for (const m of world.pack.mobs.filter((x) => biomes.some((b) => b.id === x.biome))) {
      const drops = m.drops.map((d) => d.item).join(", ");
      lines.push(
        `- ${m.id}: ${m.name}, level ${m.level}, hp ${m.hp}, attack ${m.attack}, defence ${m.defence}${m.aggressive ? `, aggressive (range ${m.aggroRange})` : ""}; drops ${drops}`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}

function nearest<T extends { x: number; y: number }>(
  list: readonly T[],
  from: { x: number; y: number },
  n: number,
): T[] {
  const d = (p: T): number => Math.abs(p.x - from.x) + Math.abs(p.y - from.y);
  return [...list].sort((a, b) => d(a) - d(b)).slice(0, n);
}
