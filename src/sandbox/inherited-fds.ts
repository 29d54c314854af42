import type { StdioOptions } from "node:child_process";
import { openSync, readdirSync, readFileSync } from "node:fs";

/** O_CLOEXEC as /proc/PID/fdinfo prints it (octal flags). */
const O_CLOEXEC = 0o2000000;

let leaked: readonly number[] | null = null;
let devNull: number | null = null;

/**
 * The descriptors above stderr this process holds without close-on-exec: ones it was started
 * with (a shell's `9>file`, a harness's control pipe), which every process it starts inherits.
 * Node opens its own with close-on-exec, so on a plain start this is empty. Read once.
 */
export function inheritedFds(): readonly number[] {
  if (leaked !== null) return leaked;
  const out: number[] = [];
  try {
    for (const name of readdirSync("/proc/self/fd")) {
      const fd = Number(name);
      if (!Number.isInteger(fd) || fd <= 2) continue;
      let flags: number;
      try {
        const m = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
        if (m?.[1] === undefined) continue;
        flags = Number.parseInt(m[1], 8);
      } catch {
        continue; // The listing's own descriptor, closed by now.
      }
      if ((flags & O_CLOEXEC) === 0) out.push(fd);
    }
  } catch {
    // No /proc: nothing is known, nothing is replaced.
  }
  leaked = out.sort((a, b) => a - b);
  return leaked;
}

/**
 * `base` (the descriptors a sandbox process is meant to have) with every other inherited
 * descriptor replaced by /dev/null in the child: bwrap hands every open descriptor on into the
 * sandbox, so a pipe the host process was started with would reach the agent's commands, which
 * could write into it (a harness's control pipe, a log the host keeps).
 */
export function sandboxStdio(base: readonly ("pipe" | "ignore" | "inherit")[]): StdioOptions {
  const fds = inheritedFds().filter((fd) => fd >= base.length);
  const last = fds.at(-1);
  if (last === undefined) return [...base];
  devNull ??= openSync("/dev/null", "r+");
  const stdio: ("pipe" | "ignore" | "inherit" | number)[] = [...base];
  // libuv leaves a descriptor past stderr that is "ignore" as it is: those that are not
  // inherited close on exec anyway; the inherited ones get /dev/null over them.
  for (let fd = base.length; fd <= last; fd++) stdio.push(fds.includes(fd) ? devNull : "ignore");
  return stdio;
}
