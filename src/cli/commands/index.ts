import type { Command } from "commander";
import { registerScaleAgents } from "../../scale/agent/register.js";
import { registerWorldKinds } from "../../world/trial/register.js";
import { registerConfigCommand } from "./config.js";
import { registerDatasetCommand } from "./dataset.js";
import { registerExportCommand } from "./export.js";
import { registerImagesCommand } from "./images.js";
import { registerModelsCommand } from "./models.js";
import { registerQueueCommand } from "./queue.js";
import { registerReportCommand } from "./report.js";
import { registerRunCommand } from "./run.js";
import { registerScaleCommand } from "./scale.js";
import { registerTaskCommand } from "./task.js";
import { registerViewCommand } from "./view.js";
import { registerWorkerCommand } from "./worker.js";
import { worldCommandFor } from "./world.js";

/**
 * Every command registered at once, for tests: test/cli/start-up.test.ts checks that catalog.ts
 * (what the CLI loads on demand) names each of these with the same help line. One line each.
 */
export async function registerCommands(program: Command): Promise<void> {
  // Agents that live above the agents layer register with the commands that can run them.
  registerScaleAgents();
  registerWorldKinds();
  registerConfigCommand(program);
  registerDatasetCommand(program);
  registerExportCommand(program);
  registerImagesCommand(program);
  registerModelsCommand(program);
  registerQueueCommand(program);
  registerReportCommand(program);
  registerRunCommand(program);
  registerScaleCommand(program);
  registerTaskCommand(program);
  registerViewCommand(program);
  registerWorkerCommand(program);
  (await worldCommandFor())(program);
}
