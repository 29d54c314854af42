import { type Command, Option } from "commander";

/** The program's options that take a value, and so may hide a command's name behind them. */
export const GLOBAL_WITH_VALUE: ReadonlySet<string> = new Set(["--config", "--plugin"]);

export interface GlobalOpts {
  config?: string;
  plugin?: string[];
}

/**
 * --config and --plugin. The program has them, shown in its help. A command whose options are
 * positional (`scale`, so that `scale verify X --no-trials` is verify's option) gets them too,
 * hidden, on it and every subcommand: commander gives a positional command's later words to the
 * command, so the program alone would never see them there.
 */
export function addGlobalOptions(cmd: Command, hidden = false): void {
  const config = new Option(
    "--config <path>",
    "config file (default: longhaul.config.ts, .mts, .js, .mjs, .json or .toml in the current folder)",
  );
  const plugin = new Option(
    "--plugin <path>",
    "load a plugin module: a path or a package name (repeatable)",
  ).argParser(collectText);
  if (hidden) {
    config.hideHelp();
    plugin.hideHelp();
  }
  cmd.addOption(config).addOption(plugin);
}

/** The global options given anywhere on the way from the program to `action`: the nearest --config, every --plugin. */
export function globalOpts(action: Command): GlobalOpts {
  const chain: Command[] = [];
  for (let c: Command | null = action; c !== null; c = c.parent) chain.unshift(c);
  const out: GlobalOpts = {};
  for (const c of chain) {
    const has = (name: string) => c.options.some((o) => o.attributeName() === name);
    if (has("config")) {
      const v: unknown = c.getOptionValue("config");
      if (typeof v === "string") out.config = v;
    }
    if (has("plugin")) {
      const v: unknown = c.getOptionValue("plugin");
      if (Array.isArray(v)) out.plugin = [...(out.plugin ?? []), ...v.filter((x) => typeof x === "string")];
    }
  }
  return out;
}

/** A command and every command below it. */
export function allCommands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(allCommands)];
}

function collectText(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
