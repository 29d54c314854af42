import type { Task } from "../../src/task/types.js";
import { fixtureTask } from "../runner/helpers.js";

/**
 * The fixture tasks of an attack, with the agent budget cut to `agentTimeoutSec` when the attack
 * sets one (Attack.agentTimeoutSec): the trial then runs as if task.toml said so.
 */
export async function attackTasks(names: string[], agentTimeoutSec?: number): Promise<Task[]> {
  const tasks = await Promise.all(names.map((t) => fixtureTask(t)));
  if (agentTimeoutSec === undefined) return tasks;
  return tasks.map((t) => ({
    ...t,
    config: { ...t.config, agent: { ...t.config.agent, timeout_sec: agentTimeoutSec } },
  }));
}
