import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { checkOutFolder, UserError } from "../../core/index.js";
import { checkOutFile } from "../../report/out-file.js";
import { contentCounts } from "../../world/build/stats.js";
import { buildWorld, createWorld, type World } from "../../world/build/world.js";
import { DEFAULT_SEED } from "../../world/content/generate-content.js";
import { loadPackDir, writePackDir } from "../../world/content/load.js";
import { RUN_FILE_VERSION, type RunFile, runFileSchema } from "../../world/engine/session.js";
import { stateDigest } from "../../world/engine/snapshot.js";
import { renderMap } from "../../world/render/render.js";
import { checkRunReplay, runWorld } from "../../world/task/replay.js";
import { parseWorldModifiers } from "../../world/trial/modifiers.js";
import { makeOutFolder, userWrite, writeOutBytes } from "./world-out.js";
import { loadWorldSubcommands, type RegisterWorldSubcommand } from "./world-subcommands.js";

interface WorldOpts {
  seed?: string;
  content?: string;
}

function seedOf(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    throw new UserError(`--seed: expected a non-negative integer, got "${text}"`);
  return n;
}

/** Pixels per tile: the renderer draws at most 16 per tile, and a 0 would be an empty image. */
function scaleOf(text: string): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > 16)
    throw new UserError(`--scale: expected a whole number of pixels per tile from 1 to 16, got "${text}"`);
  return n;
}

function worldFrom(opts: WorldOpts, fallbackSeed = DEFAULT_SEED): World {
  if (opts.content !== undefined) return buildWorld(loadPackDir(opts.content));
  return createWorld(seedOf(opts.seed, fallbackSeed));
}

export function readRun(file: string): RunFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new UserError(`${file}: cannot read run file: ${(e as Error).message}`);
  }
  const version = typeof raw === "object" && raw !== null && "version" in raw ? raw.version : undefined;
  if (typeof version === "number" && version !== RUN_FILE_VERSION) {
    throw new UserError(
      `${file}: run file version ${version} was recorded under other engine rules; this engine replays version ${RUN_FILE_VERSION}`,
    );
  }
  const parsed = runFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(
      `${file}: ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "not a world run file"}`,
    );
  }
  // The modifiers are recorded, not replayed (their effects are in the task and rules), yet
  // `world cce` and `chat` rebuild what the team was told from them: a bad list is the file's
  // fault whatever command reads it, never an option the user did not give.
  parseWorldModifiers((parsed.data.modifiers ?? []).join(","), `${file}: modifiers`);
  return parsed.data;
}

function parseRegion(text: string): { x: number; y: number; w: number; h: number } {
  const parts = text.split(",").map((p) => Number(p.trim()));
  if (parts.length !== 4 || parts.some((n) => !Number.isInteger(n))) {
    throw new UserError(`--region: expected x,y,w,h as four integers, got "${text}"`);
  }
  const [x = 0, y = 0, w = 0, h = 0] = parts;
  return { x, y, w, h };
}

/**
 * `world` with the subcommands `args` (the command line after the program) needs: the CLI passes
 * its command line; without one, every subcommand is registered.
 */
export async function worldCommandFor(args?: readonly string[]): Promise<(program: Command) => void> {
  const subcommands = await loadWorldSubcommands(args);
  return (program) => registerWorldCommand(program, subcommands);
}

function registerWorldCommand(program: Command, subcommands: readonly RegisterWorldSubcommand[]): void {
  const world = program
    .command("world")
    .description("The AgentWorld game world: content, rendering and replays");
  world
    .command("info")
    .description("Print content counts (map size, biomes, items, mobs, NPCs, harvest points, recipes)")
    .option("--json", "print JSON")
    .option("--seed <n>", "world seed")
    .option("--content <dir>", "load a content pack folder instead of generating one")
    .action((opts: WorldOpts & { json?: boolean }) => {
      const t0 = performance.now();
      const w = worldFrom(opts);
      const counts = { seed: w.pack.world.mapSeed, contentDigest: w.contentDigest, ...contentCounts(w) };
      process.stderr.write(`world built in ${Math.round(performance.now() - t0)} ms\n`);
      if (opts.json === true) {
        process.stdout.write(`${JSON.stringify(counts, null, 2)}\n`);
        return;
      }
      const rows: Array<[string, string | number]> = [
        [
          "map",
          `${counts.map.width} × ${counts.map.height} (${counts.map.tiles} tiles, ${counts.map.walkable} walkable)`,
        ],
        ["biomes", counts.biomes],
        ["items", counts.items],
        ["mob kinds", `${counts.mobKinds} (${counts.bosses} bosses, ${counts.mobSpawns} spawns)`],
        ["NPCs", counts.npcs],
        ["harvest points", `${counts.harvestPoints} (${counts.resourceKinds} kinds)`],
        ["recipes", counts.recipes],
        ["max recipe depth", counts.maxRecipeDepth],
        ["portals / doors", `${counts.portals} / ${counts.doors}`],
        ["stations", counts.stations],
        ["seed", counts.seed],
      ];
      for (const [k, v] of rows) process.stdout.write(`${k.padEnd(18)}${v}\n`);
    });
  world
    .command("render")
    .description("Draw the map (and a run's paths and key events) to a PNG")
    .requiredOption("--out <file>", "PNG file to write")
    .option("--region <x,y,w,h>", "part of the map to draw, in tiles")
    .option("--run <file>", "a run file to overlay")
    .option("--scale <n>", "pixels per tile")
    .option("--seed <n>", "world seed (default: the run's, else the default)")
    .option("--content <dir>", "load a content pack folder instead of generating one")
    .action((opts: WorldOpts & { out: string; region?: string; run?: string; scale?: string }) => {
      checkOutFile(opts.out);
      const scale = opts.scale === undefined ? undefined : scaleOf(opts.scale);
      const run = opts.run === undefined ? undefined : readRun(opts.run);
      const base = worldFrom(opts, run?.worldSeed ?? DEFAULT_SEED);
      // A world task's run was recorded in the task's world (the base one plus its placed mobs).
      const w = run === undefined ? base : runWorld(base, run);
      if (run !== undefined && run.contentDigest !== w.contentDigest) {
        throw new UserError(`${opts.run}: recorded in a different world (content digest differs)`);
      }
      const png = renderMap(w, {
        ...(opts.region === undefined ? {} : { region: parseRegion(opts.region) }),
        ...(run === undefined ? {} : { run }),
        ...(scale === undefined ? {} : { scale }),
      });
      writeOutBytes(opts.out, png);
      process.stdout.write(`${opts.out}\n`);
    });
  world
    .command("replay")
    .description(
      "Re-run a run file's tool calls and check the turn order, content pack, events and final state match",
    )
    .argument("<run>", "run file")
    .option("--content <dir>", "load a content pack folder instead of generating one from the run's seed")
    .action((file: string, opts: { content?: string }) => {
      const run = readRun(file);
      const w =
        opts.content === undefined ? createWorld(run.worldSeed) : buildWorld(loadPackDir(opts.content));
      const out = checkRunReplay(w, run);
      const s = out.session;
      const detail = s === null ? "" : `: ${s.events.length} events, digest ${stateDigest(s.state)}`;
      if (out.verdict === "identical") process.stdout.write(`identical${detail}\n`);
      else process.stdout.write(`${out.verdict === "invalid" ? "INVALID" : "DIFFERENT"}: ${out.reason}\n`);
      if (out.verdict !== "identical") process.exitCode = 1;
    });
  world
    .command("export")
    .description("Write the generated content pack as JSON files (one per kind)")
    .requiredOption("--out <dir>", "folder to write")
    .option("--seed <n>", "world seed")
    .action((opts: { out: string; seed?: string }) => {
      checkOutFolder(opts.out, "--out");
      const pack = createWorld(seedOf(opts.seed, DEFAULT_SEED)).pack;
      makeOutFolder(opts.out);
      userWrite(opts.out, () => writePackDir(pack, opts.out));
      process.stdout.write(`${opts.out}\n`);
    });
  for (const register of subcommands) register(world, readRun);
}
