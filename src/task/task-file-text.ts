import { realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { InputError, UserError } from "../core/errors.js";
import { fsProblem, readUserUtf8 } from "../core/user-files.js";

/**
 * A text file of a task that the host reads and passes on (instruction.md goes to the agent, its
 * model provider, the trajectory and every export of it). A link may lead elsewhere in the task's
 * own folder, never out of it: a task from someone else must not be able to send the host's
 * files (keys, credentials) anywhere, so a link out of the task folder is refused by name.
 */
export function readTaskText(taskDir: string, rel: string, shown: string): string {
  let real: string;
  let root: string;
  try {
    real = realpathSync(join(taskDir, rel));
    root = realpathSync(taskDir);
  } catch (e) {
    const problem = fsProblem(e, shown);
    if (problem !== null) throw new UserError(problem, { cause: e });
    throw e;
  }
  if (real !== root && !real.startsWith(root + sep))
    throw new InputError(
      shown,
      undefined,
      undefined,
      `is a symbolic link to ${real}, outside the task folder; a task's files must be its own (the host would pass this one to the agent): copy it into the task`,
    );
  return readUserUtf8(real, shown);
}
