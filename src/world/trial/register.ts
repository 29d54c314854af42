import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { registerTrialKind } from "../../runner/trial-kinds.js";
import { isTaskDir, registerTaskKind } from "../../task/index.js";
import { getTeamAgent, listTeamAgents } from "../team/registry.js";
import { cceSamplesOf } from "./cce-option.js";
import { checkTeamForModifiers, modifiersOf } from "./modifiers.js";

const YAML = /\.ya?ml$/;

/**
 * A path holds world tasks when it is a YAML file, or a folder of YAML files that is not a
 * Harbor task or dataset (no task.toml in it or its subfolders).
 */
export function holdsWorldTasks(path: string): boolean {
  try {
    const st = statSync(path);
    if (st.isFile()) return YAML.test(path);
    if (!st.isDirectory() || isTaskDir(path)) return false;
    const entries = readdirSync(path, { withFileTypes: true });
    if (entries.some((e) => e.isDirectory() && isTaskDir(join(path, e.name)))) return false;
    return entries.some((e) => e.isFile() && YAML.test(e.name));
  } catch {
    return false;
  }
}

let registered = false;

/**
 * Makes world tasks loadable and runnable by `run`, `worker` and `task` commands: the "world"
 * task kind (YAML task files) and trial kind (a team plays the task). The world's modules load
 * only when a world task is met, so terminal-only commands do not pay for them.
 */
export function registerWorldKinds(): void {
  if (registered) return;
  registered = true;
  registerTaskKind({
    kind: "world",
    claims: holdsWorldTasks,
    load: async (path) => (await import("./world-task-loader.js")).loadWorldTaskSet(path),
  });
  registerTrialKind({
    kind: "world",
    agents: () => listTeamAgents().map((t) => t.name),
    needsModel: (agent) => getTeamAgent(agent).needsModel === true,
    checkOptions: (options, agent) => {
      checkTeamForModifiers(agent, modifiersOf(options));
      cceSamplesOf(options);
    },
    run: async (p) => (await import("./world-trial.js")).runWorldTrial(p),
  });
}
