import type { Command } from "commander";
import { describeSource, type EffectiveConfig } from "../../config.js";
import { formatTable } from "../../report/format.js";
import { effectiveConfig } from "../apply-config.js";
import { writeJson } from "../options.js";

/** The effective configuration as one JSON document: each value with where it came from. */
export function configDocument(c: EffectiveConfig) {
  const sourced = <T>(s: { value: T; source: Parameters<typeof describeSource>[0] }) => ({
    value: s.value,
    source: describeSource(s.source),
  });
  return {
    config_file: c.file === null ? null : { path: c.file.path, found_by: c.file.foundBy },
    jobsDir: sourced(c.jobsDir),
    sandbox: sourced(c.sandbox),
    models: sourced(c.models),
    pricing: Object.fromEntries(Object.entries(c.pricingModels).map(([m, p]) => [m, sourced(p)])),
    plugins: c.plugins.map((p) => ({ value: p.spec, source: describeSource(p.source) })),
    agents: Object.fromEntries(Object.entries(c.agents).map(([name, a]) => [name, sourced(a)])),
  };
}

export function formatConfig(c: EffectiveConfig): string {
  const doc = configDocument(c);
  const rows: string[][] = [
    ["jobsDir", doc.jobsDir.value, doc.jobsDir.source],
    ["sandbox", doc.sandbox.value, doc.sandbox.source],
    ["models", doc.models.value.length === 0 ? "(none)" : doc.models.value.join(", "), doc.models.source],
  ];
  for (const [model, p] of Object.entries(doc.pricing)) {
    rows.push([`pricing.${model}`, `in ${p.value.input} / out ${p.value.output} $/Mtok`, p.source]);
  }
  if (doc.plugins.length === 0) rows.push(["plugins", "(none)", "default"]);
  for (const p of doc.plugins) rows.push(["plugins", p.value, p.source]);
  for (const [name, a] of Object.entries(doc.agents)) {
    rows.push([`agents.${name}`, `${a.value.package}@${a.value.version}`, a.source]);
  }
  const file =
    doc.config_file === null
      ? "config file: none (longhaul.config.ts, .json or .toml in the current folder, --config, LONGHAUL_CONFIG)"
      : `config file: ${doc.config_file.path} (${doc.config_file.found_by})`;
  return `${file}\n\n${formatTable(["KEY", "VALUE", "SOURCE"], rows, { align: "left", rule: false })}\n`;
}

export function registerConfigCommand(program: Command): void {
  const config = program.command("config").description("the configuration file: show the effective settings");
  config
    .command("show")
    .description("print the effective configuration and where each value came from")
    .option("--json", "print one JSON document")
    .action(async (opts: { json?: boolean }) => {
      const c = await effectiveConfig();
      if (opts.json) writeJson(configDocument(c));
      else process.stdout.write(formatConfig(c));
    });
}
