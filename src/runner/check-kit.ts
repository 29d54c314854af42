import type { Task } from "../task/types.js";
import { describeKitStatus, kitStatus } from "../task/verifier-kit.js";
import type { CheckItem } from "./check-task.js";

/**
 * tests/lh.py, when a task carries it, is the verifier kit byte for byte: a stale copy (an older
 * version) or an edited one (the current version's line, other bytes) fails, naming the file.
 * Reads two files: no sandbox.
 */
export function kitCheck(task: Task): CheckItem {
  const s = kitStatus(task.paths.tests);
  return {
    name: "tests/lh.py is the current verifier kit",
    ok: s.state === "current" || s.state === "absent",
    detail: describeKitStatus(s),
  };
}
