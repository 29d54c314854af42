import { UserError } from "../core/errors.js";
import type { Task } from "../task/types.js";
import { describeKitStatus, type KitStatus, kitStatus } from "../task/verifier-kit.js";
import type { CheckItem } from "./check-task.js";

/**
 * tests/lh.py, when a task carries it, is the verifier kit byte for byte: a stale copy (an older
 * version) or an edited one (the current version's line, other bytes) fails, naming the file.
 * Reads two files: no sandbox.
 */
export function kitCheck(task: Task): CheckItem {
  const name = "tests/lh.py is the current verifier kit";
  let s: KitStatus;
  try {
    s = kitStatus(task.paths.tests);
  } catch (e) {
    // A folder named lh.py fails this task's check; the other tasks are still checked.
    if (e instanceof UserError) return { name, ok: false, detail: e.message };
    throw e;
  }
  // A file of the task's own named lh.py is no kit copy to hold to the kit.
  return { name, ok: ["current", "absent", "foreign"].includes(s.state), detail: describeKitStatus(s) };
}
