import type { Command } from "commander";
import { registerScaleCommand } from "../../../src/cli/commands/scale.js";
import { runCliInProcess } from "../../support/cli-in-process.js";
import type { CliResult } from "../../support/cli-process.js";

/**
 * Runs `longhaul scale ...` in this process (so transforms a test registered are there), with
 * stdout and stderr captured and the exit code the real CLI would give.
 */
export async function cli(
  args: string[],
  register: (program: Command) => void = registerScaleCommand,
): Promise<CliResult> {
  return runCliInProcess(args, register);
}
