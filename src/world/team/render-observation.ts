import type { Observation } from "../engine/observe.js";

/** An observation as the text a model reads on its turn: position, state, what is near, messages. */
export function renderObservation(obs: Observation): string {
  const lines = [
    `You are ${obs.agent} (${obs.role}), tick ${obs.tick}, at (${obs.position.x}, ${obs.position.y}) in ${obs.position.biome} on ${obs.position.terrain}.`,
    `HP ${obs.hp.current}/${obs.hp.max}. Skills: ${Object.entries(obs.skills)
      .map(([s, l]) => `${s} ${l}`)
      .join(", ")}.`,
    `Inventory (${obs.slots.used}/${obs.slots.capacity} slots): ${
      obs.inventory.map((i) => `${i.item} ×${i.qty}`).join(", ") || "empty"
    }.`,
    `Equipped: ${
      Object.entries(obs.equipment)
        .map(([slot, item]) => `${slot}: ${item}`)
        .join(", ") || "nothing"
    }.`,
    "Nearby (nearest first):",
    ...obs.nearby.map(
      (t) => `- ${t.kind} ${t.id} "${t.name}" at (${t.x}, ${t.y}), distance ${t.distance}: ${t.detail}`,
    ),
    ...(obs.nearbyOmitted > 0 ? [`(${obs.nearbyOmitted} more in view not listed)`] : []),
    "Map around you (@ you, . grass, ~ water, # rock, = road, _ floor):",
    ...obs.terrain,
  ];
  if (obs.messages.length > 0) {
    lines.push("New messages:");
    for (const m of obs.messages)
      lines.push(`- tick ${m.tick} ${m.from}${m.to ? ` to ${m.to}` : ""}: ${m.text}`);
  }
  if (obs.teamView !== undefined && obs.teamView.teammates.length > 0) {
    lines.push("Your team, wherever they are:");
    for (const t of obs.teamView.teammates)
      lines.push(
        `- ${t.id} (${t.role}) at (${t.position.x}, ${t.position.y}) in ${t.position.biome}, HP ${t.hp.current}/${t.hp.max}, ${t.status}; inventory: ${
          t.inventory.map((i) => `${i.item} ×${i.qty}`).join(", ") || "empty"
        }; equipped: ${
          Object.entries(t.equipment)
            .map(([slot, item]) => `${slot}: ${item}`)
            .join(", ") || "nothing"
        }`,
      );
    if (obs.teamView.chat.length > 0) {
      lines.push("Latest team chat:");
      for (const m of obs.teamView.chat)
        lines.push(`- tick ${m.tick} ${m.from}${m.to ? ` to ${m.to}` : ""}: ${m.text}`);
    }
  }
  if (obs.lastResult !== null) {
    lines.push(
      obs.lastResult.ok
        ? `Your last action (${obs.lastResult.tool}) succeeded: ${obs.lastResult.message}`
        : `Your last action (${obs.lastResult.tool}) failed [${obs.lastResult.error.code}]: ${obs.lastResult.error.message}`,
    );
  }
  lines.push("Make exactly one tool call.");
  return lines.join("\n");
}
