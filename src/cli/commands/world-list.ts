import type { Command } from "commander";
import { UserError } from "../../core/index.js";
import { buildWorld, createWorld } from "../../world/build/world.js";
import { DEFAULT_SEED } from "../../world/content/generate-content.js";
import { loadPackDir } from "../../world/content/load.js";
import { catalogMarkdown, worldTaskCatalog } from "../../world/task/catalog.js";

/** `longhaul world list [DIR|FILE...] [--markdown] [--json]`, added under the `world` command. */
export function registerWorldListCommand(world: Command): void {
  world
    .command("list")
    .description(
      "List world tasks: category, team, reference and budget, and what each needs (the file's opening comment)",
    )
    .argument("[paths...]", "task files or folders of *.yaml (default world-tasks/)")
    .option("--markdown", "the counts table and one row per main task, as docs/world-tasks.md shows them")
    .option("--json", "one object per task")
    .option("--seed <n>", "world seed")
    .option("--content <dir>", "load a content pack folder instead of generating one")
    .action(
      (paths: string[], opts: { markdown?: boolean; json?: boolean; seed?: string; content?: string }) => {
        if (opts.markdown === true && opts.json === true)
          throw new UserError("--markdown and --json exclude each other");
        const seed = opts.seed === undefined ? DEFAULT_SEED : Number(opts.seed);
        if (!Number.isInteger(seed) || seed < 0)
          throw new UserError(`--seed: expected a non-negative integer, got "${opts.seed}"`);
        const w = opts.content !== undefined ? buildWorld(loadPackDir(opts.content)) : createWorld(seed);
        const rows = worldTaskCatalog(paths.length > 0 ? paths : ["world-tasks"], w);
        if (opts.json === true) {
          process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
          return;
        }
        if (opts.markdown === true) {
          process.stdout.write(catalogMarkdown(rows));
          return;
        }
        const width = Math.max(4, ...rows.map((r) => r.id.length));
        for (const r of rows) {
          const ref = `${r.referenceRounds ?? "–"}/${r.maxRounds}`;
          const of = r.variantOf === null ? "" : `  variant of ${r.variantOf}`;
          process.stdout.write(
            `${r.id.padEnd(width)}  ${r.category.padEnd(13)}  ${String(r.agents).padStart(2)} agents  ${ref.padStart(7)}  ${r.roles}${of}\n`,
          );
        }
        process.stderr.write(
          `${rows.length} world tasks (${rows.filter((r) => r.variantOf !== null).length} variants)\n`,
        );
      },
    );
}
