import type { Command } from "commander";
import { type ModelCatalog, modelCatalog } from "../../models/index.js";
import { formatTable } from "../../report/format.js";

function money(n: number): string {
  return n.toFixed(n < 1 ? 3 : 2);
}

function table([header, ...rows]: string[][]): string {
  return formatTable(header ?? [], rows, { align: "left", rule: false });
}

export function formatCatalog(c: ModelCatalog): string {
  const providers = table([
    ["PROVIDER", "READY", "API KEY", "BASE URL", "ABOUT"],
    ...c.providers.map((p) => [
      p.name,
      p.ready ? "yes" : "no",
      p.api_key_from ?? `(${p.api_key_required ? "set" : "optional:"} ${p.api_key_env.join(" or ")})`,
      p.base_url ?? (p.base_url_env.length ? `(${p.base_url_env.join(" or ")})` : "-"),
      p.description,
    ]),
  ]);
  const models = table([
    ["MODEL", "IN $/Mtok", "CACHED", "CACHE WRITE", "OUT $/Mtok", "CONTEXT", "SOURCE"],
    ...c.models.map((m) => [
      m.id,
      money(m.input_per_mtok),
      money(m.cached_input_per_mtok),
      money(m.cache_write_per_mtok),
      money(m.output_per_mtok),
      m.context_window === null ? "-" : String(m.context_window),
      m.source,
    ]),
  ]);
  return `${providers}\n\n${models}\n\nPricing overrides: ${c.pricing_file} (LONGHAUL_PRICING). Models without a price run with cost 0, flagged.\n`;
}

export function registerModelsCommand(program: Command): void {
  program
    .command("models")
    .description("list model providers, their credentials status and the pricing table")
    .option("--json", "print one JSON document")
    .option(
      "--pricing <file>",
      "pricing file to overlay (default ~/.longhaul/pricing.json or LONGHAUL_PRICING)",
    )
    .action((opts: { json?: boolean; pricing?: string }) => {
      const c = modelCatalog(process.env, opts.pricing);
      process.stdout.write(opts.json ? `${JSON.stringify(c, null, 2)}\n` : formatCatalog(c));
    });
}
