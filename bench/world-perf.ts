// World engine figures: generation/load time and memory, tool calls per second with 20 agents
// (long moves included), and one full round with 1,000 agents. Run: npx tsx bench/world-perf.ts
import { Rng } from "../src/core/index.js";
import { buildWorld, type World } from "../src/world/build/world.js";
import { DEFAULT_SEED, generateContent } from "../src/world/content/generate-content.js";
import { validatePack } from "../src/world/content/validate.js";
import type { AgentSpec } from "../src/world/engine/init.js";
import { Session } from "../src/world/engine/session.js";
import type { ToolCall } from "../src/world/model/tool-args.js";

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MB`;

function timed<T>(fn: () => T): { value: T; wallMs: number; cpuMs: number } {
  const w0 = performance.now();
  const c0 = cpu();
  const value = fn();
  return { value, wallMs: performance.now() - w0, cpuMs: cpu() - c0 };
}

const gen = timed(() => generateContent(DEFAULT_SEED));
const built = timed(() => buildWorld(validatePack(gen.value.pack), gen.value.map));
const world = built.value;
const mem = process.memoryUsage();
console.log("world load");
console.log(`  generate content+map   wall ${gen.wallMs.toFixed(0)} ms   cpu ${gen.cpuMs.toFixed(0)} ms`);
console.log(`  validate+index+paths   wall ${built.wallMs.toFixed(0)} ms   cpu ${built.cpuMs.toFixed(0)} ms`);
const loadCpu = gen.cpuMs + built.cpuMs;
console.log(
  `  total                  wall ${(gen.wallMs + built.wallMs).toFixed(0)} ms   cpu ${loadCpu.toFixed(0)} ms   (target ≤ 1000 ms: ${(loadCpu / 1000).toFixed(2)}×)`,
);
console.log(
  `  memory after load      heap ${mb(mem.heapUsed)}   rss ${mb(mem.rss)}   (target ≤ 500 MB: ${(mem.rss / (500 * 1024 * 1024)).toFixed(2)}×)`,
);

const ROLES = [
  "miner",
  "lumberjack",
  "smith",
  "warrior",
  "fisher",
  "cook",
  "fletcher",
  "alchemist",
  "merchant",
];
const mainland: Array<[number, number]> = [];
{
  const rng = new Rng(99);
  const { map } = world;
  while (mainland.length < 5000) {
    const x = rng.int(0, map.width - 1);
    const y = rng.int(0, map.height - 1);
    if (map.comp[y * map.width + x] === map.mainComp) mainland.push([x, y]);
  }
}

/** A mixed workload: a third moves toward anywhere on the mainland (each capped per call), the rest role actions. */
function policyFor(world: World, rng: Rng) {
  let k = 0;
  return (agentId: string, _obs: unknown): ToolCall => {
    const role = agentId.split("-")[0] ?? "";
    const r = rng.next();
    k++;
    if (r < 0.34) {
      const [x, y] = mainland[(k * 7919 + rng.int(0, 4999)) % mainland.length] ?? [0, 0];
      return { tool: "move_to", args: { x, y } };
    }
    if (r < 0.45) return { tool: "chat", args: { message: `status ${k}` } };
    if (role === "miner")
      return {
        tool: "harvest_resource",
        args: { target: rng.pick(["copper_rock", "tin_rock", "iron_rock"]) },
      };
    if (role === "lumberjack")
      return { tool: "harvest_resource", args: { target: rng.pick(["pine_tree", "oak_tree"]) } };
    if (role === "fisher") return { tool: "harvest_resource", args: { target: "shrimp_spot" } };
    if (role === "warrior")
      return { tool: "attack_entity", args: { target: rng.pick(["field_rat", "field_bat", "wood_rat"]) } };
    if (role === "smith") return { tool: "craft_item", args: { item: "bronze_bar" } };
    if (role === "merchant")
      return { tool: "trade_npc", args: { npc: "greenvale_grocer", action: "buy", item: "flax" } };
    void world;
    return { tool: "wait", args: {} };
  };
}

function team(n: number): AgentSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${ROLES[i % ROLES.length]}-${i}`,
    role: ROLES[i % ROLES.length] ?? "miner",
  }));
}

{
  // Five batches of 60 rounds: the machine may be shared, so the median and best batch are shown.
  const session = new Session(world, team(20), 1, 1_000_000);
  const policy = policyFor(world, new Rng(5));
  const batches: Array<{ calls: number; wallMs: number; cpuMs: number }> = [];
  console.log("20 agents, observe + one call each, 300 rounds in 5 batches (batch 1 includes JIT warm-up)");
  for (let b = 0; b < 5; b++) {
    const before = session.calls.length;
    const okBefore = session.events.filter((e) => e.type === "action" && e.data.ok === true).length;
    const t = timed(() => {
      for (let r = 0; r < 60; r++) session.runRound(policy);
    });
    const ok = session.events.filter((e) => e.type === "action" && e.data.ok === true).length - okBefore;
    batches.push({ calls: session.calls.length - before, wallMs: t.wallMs, cpuMs: t.cpuMs });
    console.log(
      `  batch ${b + 1}: ${session.calls.length - before} calls (${ok} ok) in ${t.wallMs.toFixed(0)} ms wall, ${t.cpuMs.toFixed(0)} ms cpu`,
    );
  }
  const calls = session.calls.length;
  const moves = session.events.filter((e) => e.type === "moved");
  const steps = moves.reduce((s, e) => s + (typeof e.data.steps === "number" ? e.data.steps : 0), 0);
  const okCalls = session.events.filter((e) => e.type === "action" && e.data.ok === true).length;
  const rate = (n: number, ms: number): number => (n / ms) * 1000;
  const wall = batches.map((b) => rate(b.calls, b.wallMs)).sort((a, b) => a - b);
  const cpuRate = batches.map((b) => rate(b.calls, b.cpuMs)).sort((a, b) => a - b);
  console.log(
    `  ${calls} calls (${okCalls} ok), ${moves.length} moves averaging ${(steps / Math.max(1, moves.length)).toFixed(0)} tiles`,
  );
  console.log(
    `  wall: median ${wall[2]?.toFixed(0)} calls/s, best ${wall[4]?.toFixed(0)} (target ≥ 5000: ${((wall[2] ?? 0) / 5000).toFixed(2)}×)`,
  );
  console.log(
    `  cpu:  median ${cpuRate[2]?.toFixed(0)} calls/s per core, best ${cpuRate[4]?.toFixed(0)} (${((cpuRate[2] ?? 0) / 5000).toFixed(2)}×)`,
  );
}

if (process.env.WORLD_BENCH_SKIP_1000 === undefined) {
  const session = new Session(world, team(1000), 2, 1_000_000);
  const policy = policyFor(world, new Rng(6));
  session.runRound(policy); // warm-up round
  const t = timed(() => session.runRound(policy));
  const mem2 = process.memoryUsage();
  console.log("1,000 agents, one round (each observes and makes one call)");
  console.log(
    `  wall ${t.wallMs.toFixed(0)} ms   cpu ${t.cpuMs.toFixed(0)} ms   (target ≤ 1000 ms: ${(t.cpuMs / 1000).toFixed(2)}×)`,
  );
  console.log(`  memory: heap ${mb(mem2.heapUsed)}   rss ${mb(mem2.rss)}`);
}
