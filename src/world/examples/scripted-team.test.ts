import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { testRole } from "../../../test/world/kit.js";
import { createWorld } from "../build/world.js";
import { DEFAULT_SEED } from "../content/generate-content.js";
import { contributingEvents, traceLot, traceRoots } from "../engine/provenance.js";
import { replay } from "../engine/replay.js";
import { runFileSchema, Session } from "../engine/session.js";
import { restore, snapshot, stateDigest } from "../engine/snapshot.js";
import { step } from "../engine/step.js";
import { renderMap } from "../render/render.js";
import { runScriptedTeam } from "./team-plan.js";

const world = createWorld(DEFAULT_SEED);
const session = runScriptedTeam(world);
const run = session.toRunFile(DEFAULT_SEED);

describe("a scripted three-role team", () => {
  it("gathers, hands over, crafts and equips, then declares completion", () => {
    const failures = session.events.filter((e) => e.type === "action" && e.data.ok !== true);
    expect(failures).toEqual([]);
    const warrior = session.state.agents.get(session.state.agentIndex.warrior ?? -1);
    const weapon = session.state.lots.get(warrior?.equipment.weapon ?? -1);
    expect(weapon?.item).toBe("bronze_sword");
    // Each agent declared its own part complete; the run ended when the last one did.
    expect(run.completed.map((c) => c.agent).sort()).toEqual(["miner", "smith", "warrior"]);
    expect(run.rounds).toBeLessThan(40);
    expect(session.done).toBe(true);
    const types = new Set(session.events.map((e) => e.type));
    for (const t of ["harvested", "transferred", "crafted", "equipped", "killed", "chat"])
      expect(types.has(t)).toBe(true);
  });

  it("traces the equipped sword back to the miner's harvests through both hand-overs", () => {
    const warrior = session.state.agents.get(session.state.agentIndex.warrior ?? -1);
    const trace = traceLot(session.state, warrior?.equipment.weapon ?? -1);
    const roots = traceRoots(trace);
    expect(roots.every((r) => r.origin.kind === "harvest" && r.origin.by === "miner")).toBe(true);
    expect(new Set(roots.map((r) => r.item))).toEqual(new Set(["copper_ore", "tin_ore"]));
    expect(roots.reduce((n, r) => n + r.qty, 0)).toBe(4);
    const seqs = new Set(contributingEvents(trace));
    const byType = (type: string): number[] =>
      session.events.filter((e) => e.type === type).map((e) => e.seq);
    for (const s of byType("harvested")) expect(seqs.has(s)).toBe(true);
    for (const s of byType("crafted")) expect(seqs.has(s)).toBe(true);
    expect(byType("transferred").filter((s) => seqs.has(s)).length).toBe(3); // two ore hand-overs and the sword
    expect(seqs.has(byType("killed")[0] ?? -1)).toBe(false); // the rat fight did not feed the sword
  });

  it("replays byte-identically in this process and in a fresh one", () => {
    const again = replay(world, runFileSchema.parse(JSON.parse(JSON.stringify(run))));
    expect(JSON.stringify(again.events)).toBe(JSON.stringify(run.events));
    expect(stateDigest(again.state)).toBe(run.finalDigest);
    const dir = mkdtempSync(join(tmpdir(), "world-run-"));
    const out = join(dir, "run.json");
    // The built example (npm test builds first): npx and tsx would add seconds of start-up.
    const built = join(import.meta.dirname, "../../../dist/world/examples/scripted-team.js");
    execFileSync(process.execPath, [built, "--out", out], { stdio: "pipe" });
    const child = runFileSchema.parse(JSON.parse(readFileSync(out, "utf8")));
    expect(JSON.stringify(child.events)).toBe(JSON.stringify(run.events));
    expect(child.finalDigest).toBe(run.finalDigest);
  });

  it("never modifies the state it is given, and snapshots restore to the same state", () => {
    // The miner, back online and standing by a copper rock.
    const i = session.state.agentIndex.miner ?? -1;
    const miner = session.state.agents.get(i);
    if (miner === undefined) throw new Error("no miner");
    const start = {
      ...session.state,
      agents: session.state.agents.set(i, { ...miner, completed: null, x: 486, y: 362 }),
    };
    const before = stateDigest(start);
    const text = snapshot(start);
    const out = step(world, start, "miner", { tool: "harvest_resource", args: { target: "copper_rock" } });
    expect(out.result.ok).toBe(true);
    expect(stateDigest(start)).toBe(before);
    const restored = restore(text);
    expect(stateDigest(restored)).toBe(before);
    const fromRestored = step(world, restored, "miner", {
      tool: "harvest_resource",
      args: { target: "copper_rock" },
    });
    expect(JSON.stringify(fromRestored.events)).toBe(JSON.stringify(out.events));
  });

  it("renders the run to a PNG with the paths drawn over the map", () => {
    const region = { x: 440, y: 300, w: 160, h: 140 };
    const plain = PNG.sync.read(renderMap(world, { region }));
    const withRun = PNG.sync.read(renderMap(world, { region, run }));
    expect([withRun.width, withRun.height]).toEqual([160 * 6, 140 * 6]);
    let differing = 0;
    for (let i = 0; i < plain.data.length; i += 4)
      if (plain.data[i] !== withRun.data[i] || plain.data[i + 2] !== withRun.data[i + 2]) differing++;
    expect(differing).toBeGreaterThan(500);
  });
});

describe("runs with custom roles", () => {
  it("carry their role definitions, so the run file alone replays", () => {
    const role = testRole("t_fisher", { fishing: 20 }, [{ item: "fishing_rod", qty: 1 }]);
    const s = new Session(world, [{ id: "f", role: "t_fisher", at: { x: 494, y: 386 } }], 3, 4, [role]);
    s.run(() => ({ tool: "harvest_resource", args: { target: "shrimp_spot" } }));
    const file = runFileSchema.parse(JSON.parse(JSON.stringify(s.toRunFile(DEFAULT_SEED))));
    expect(file.roles?.map((r) => r.id)).toEqual(["t_fisher"]);
    const again = replay(world, file);
    expect(stateDigest(again.state)).toBe(file.finalDigest);
    const harvests = s.events.filter((e) => e.type === "harvested").length;
    expect(harvests).toBeGreaterThan(0);
    expect(again.events.filter((e) => e.type === "harvested")).toHaveLength(harvests);
  });
});
