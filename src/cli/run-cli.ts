import type { Command } from "commander";
import { CommanderError, Help } from "commander";
import { InternalError, isLonghaulError } from "../core/errors.js";
import { packageVersion } from "../core/package-root.js";
import { COMMANDS, commandNamed } from "./commands/catalog.js";
import { addGlobalOptions, allCommands } from "./global-options.js";

// Only commander, the catalog and two small core files load before a command is chosen: every
// command's module loads on demand (see commands/catalog.ts), so `--help` and `--version` stay fast.

/** Exit codes: 0 ok, 1 a check failed (e.g. task check), 2 user error, 3 infrastructure, 70 internal. */
export async function runCli(program: Command, argv: string[]): Promise<void> {
  try {
    program.version(packageVersion(), "-V, --version", "print the longhaul version");
    addGlobalOptions(program);
    // The config file and plugins load once a command is chosen, never for --help or --version.
    program.hook("preAction", async (_root, action) => {
      const { applyConfig } = await import("./apply-config.js");
      await applyConfig(action);
    });
    await registerOnDemand(program, argv.slice(2));
    // Every level, not only the program: a subcommand's own usage error (a missing argument, an
    // unknown option) is a user error (exit 2) too, never commander's process.exit(1).
    for (const cmd of allCommands(program)) {
      cmd.exitOverride();
      cmd.configureOutput({ writeErr: (s) => process.stderr.write(s) });
    }
    await program.parseAsync(argv);
  } catch (e) {
    process.exitCode = exitCodeFor(e);
  }
}

/**
 * The named command is registered in full (its options, subcommands and action); every other
 * command only by name and help line, which is all the top-level help shows.
 */
async function registerOnDemand(program: Command, args: readonly string[]): Promise<void> {
  const name = commandNamed(args);
  const chosen = COMMANDS.find((c) => c.name === name);
  if (chosen !== undefined) {
    if (chosen.runsAgents) {
      // Agents that live above the agents layer register with the commands that can run them.
      const { registerScaleAgents } = await import("../scale/agent/register.js");
      registerScaleAgents();
      // World tasks (YAML) load and run as tasks of their own kind, played by team agents.
      const { registerWorldKinds } = await import("../world/trial/register.js");
      registerWorldKinds();
    }
    (await chosen.load(args))(program);
  }
  const terms = new Map<Command, string>();
  for (const entry of COMMANDS) {
    if (program.commands.some((c) => c.name() === entry.name)) continue;
    const stub = program
      .command(entry.name)
      .description(entry.description)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(() => {
        throw new InternalError(`command ${entry.name} ran without its module loaded`);
      });
    terms.set(stub, entry.term);
  }
  const help = new Help();
  program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd) ?? help.subcommandTerm(cmd) });
}

export function exitCodeFor(e: unknown): number {
  if (e instanceof CommanderError) {
    if (e.exitCode === 0) return 0;
    return 2;
  }
  if (isLonghaulError(e)) {
    if (e.kind === "user") {
      process.stderr.write(`longhaul: ${e.message}\n`);
      return 2;
    }
    if (e.kind === "infra") {
      process.stderr.write(`longhaul: infrastructure error: ${e.message}\n`);
      return 3;
    }
  }
  const stack = e instanceof Error ? (e.stack ?? e.message) : String(e);
  process.stderr.write(`longhaul: internal error — please report this with the command you ran:\n${stack}\n`);
  return 70;
}
