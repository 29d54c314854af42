import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createWorld } from "../build/world.js";
import { DEFAULT_SEED } from "../content/generate-content.js";
import { runScriptedTeam } from "./team-plan.js";

// Usage: npx tsx src/world/examples/scripted-team.ts --out run.json
const { values } = parseArgs({
  options: { out: { type: "string", default: "run.json" }, seed: { type: "string", default: "7" } },
});
const world = createWorld(DEFAULT_SEED);
const session = runScriptedTeam(world, Number(values.seed));
const run = session.toRunFile(DEFAULT_SEED);
writeFileSync(values.out, `${JSON.stringify(run, null, 1)}\n`);
for (const e of session.events.filter((x) => x.type === "action")) {
  const ok = e.data.ok === true ? "ok " : "ERR";
  process.stderr.write(
    `tick ${e.tick} ${String(e.agent).padEnd(8)} ${ok} ${String(e.data.tool)} ${e.data.ok === true ? "" : JSON.stringify(e.data.error)}\n`,
  );
}
process.stdout.write(
  `${values.out}: ${session.events.length} events, ${run.rounds} rounds, digest ${run.finalDigest}\n`,
);
