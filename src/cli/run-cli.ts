import type { Command } from "commander";
import { CommanderError } from "commander";
import { isLonghaulError } from "../core/index.js";
import { registerCommands } from "./commands/index.js";

/** Exit codes: 0 ok, 1 a check failed (e.g. task check), 2 user error, 3 infrastructure, 70 internal. */
export async function runCli(program: Command, argv: string[]): Promise<void> {
  registerCommands(program);
  program.exitOverride();
  program.configureOutput({ writeErr: (s) => process.stderr.write(s) });
  try {
    await program.parseAsync(argv);
  } catch (e) {
    process.exitCode = exitCodeFor(e);
  }
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
