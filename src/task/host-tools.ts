import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { UserError } from "../core/errors.js";
import type { Task } from "./types.js";

/** The full path of an executable on PATH, or null. */
export function findOnPath(tool: string, pathVar: string = process.env.PATH ?? ""): string | null {
  for (const dir of pathVar.split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, tool);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return null;
}

/**
 * Fail before any trial starts when the host lacks a tool the task declared in
 * [requires] host_tools, rather than letting every trial fail the same way later.
 */
export function checkHostTools(task: Task, pathVar: string = process.env.PATH ?? ""): void {
  const missing = task.config.requires.host_tools.filter((tool) => findOnPath(tool, pathVar) === null);
  if (missing.length > 0) {
    throw new UserError(
      `task ${task.name} needs ${missing.length === 1 ? "a host tool" : "host tools"} not found on PATH: ${missing.join(", ")} (install ${missing.length === 1 ? "it" : "them"}, or remove from [requires] host_tools)`,
    );
  }
}
