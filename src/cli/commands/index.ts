import type { Command } from "commander";
import { registerRunCommand } from "./run.js";
import { registerTaskCommand } from "./task.js";

/** Every command module registers itself here; one line each. */
export function registerCommands(program: Command): void {
  registerRunCommand(program);
  registerTaskCommand(program);
}
