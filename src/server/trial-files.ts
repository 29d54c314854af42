import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { z } from "zod";
import { errorMessage } from "../core/index.js";

/**
 * Reading the files a trial leaves behind. Each reader is lenient: a missing or damaged log is
 * shown as such on the page instead of failing the whole trial view.
 */

/**
 * A regular file under the trial folder, or null. Logs are written by agents and verifiers, so a
 * symbolic link pointing out of the trial folder is treated as absent rather than followed. The
 * folder is taken as given, not resolved: a trial or job folder that is itself a link (to / or to
 * another job) would make everything under its target "inside", so through such a folder nothing
 * is found. Pass a path without links (the viewer passes one under the real jobs folder).
 */
export function trialFile(trialDir: string, ...parts: string[]): string | null {
  const path = join(trialDir, ...parts);
  if (!existsSync(path)) return null;
  const real = realpathSync(path);
  const rel = relative(resolve(trialDir), real);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return null;
  return statSync(real).isFile() ? real : null;
}

export type Loaded<T> =
  | { state: "missing" }
  | { state: "invalid"; reason: string }
  | { state: "ok"; value: T };

/**
 * An open descriptor of the regular file at `path` and its size, or null when nothing is there or
 * it is not a regular file. The open neither follows a link nor waits: a FIFO put where a log was
 * checked to be would otherwise block the open, and with it every request the viewer serves.
 */
export function openRegular(path: string): { fd: number; size: number } | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ELOOP" || code === "ENXIO") return null;
    throw e;
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    return null;
  }
  return { fd, size: st.size };
}

/** The last `maxBytes` of a text file (logs can be large; their end is what matters). */
export function readTail(path: string | null, maxBytes: number): { text: string; skipped: number } | null {
  const file = path === null ? null : openRegular(path);
  if (file === null) return null;
  try {
    const start = Math.max(0, file.size - maxBytes);
    const buf = Buffer.alloc(file.size - start);
    const n = readSync(file.fd, buf, 0, buf.length, start);
    return { text: buf.subarray(0, n).toString("utf8"), skipped: start };
  } finally {
    closeSync(file.fd);
  }
}

/**
 * The first `maxBytes` of a regular file, or null when nothing is there. It never follows a link
 * and never blocks: the file may come from a task folder its author controls, and a FIFO opened
 * for reading would wait for a writer forever, stalling every request the viewer serves.
 * Anything else (a folder, a device, a link) throws, saying what it is.
 */
export function readHead(path: string, maxBytes: number): { text: string; skipped: number } | null {
  let kind: Stats;
  try {
    kind = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  if (!kind.isFile()) throw new Error(`not a regular file (${fileKind(kind)})`);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    // The path may have been swapped between lstat and open; what counts is what was opened.
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`not a regular file (${fileKind(st)})`);
    const buf = Buffer.alloc(Math.min(st.size, maxBytes));
    const n = readSync(fd, buf, 0, buf.length, 0);
    return { text: buf.subarray(0, n).toString("utf8"), skipped: st.size - n };
  } finally {
    closeSync(fd);
  }
}

function fileKind(st: Stats): string {
  if (st.isDirectory()) return "a folder";
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  return "a device";
}

const stepMetricsSchema = z.object({
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  cached_tokens: z.number().optional(),
  cost_usd: z.number().optional(),
});

/** The parts of an ATIF trajectory the viewer shows; unknown fields are ignored. */
export const viewTrajectorySchema = z.object({
  schema_version: z.string().optional(),
  session_id: z.string().optional(),
  agent: z
    .object({ name: z.string(), version: z.string().optional(), model_name: z.string().optional() })
    .optional(),
  steps: z.array(
    z.object({
      step_id: z.number(),
      timestamp: z.string().optional(),
      source: z.string(),
      message: z.string().default(""),
      tool_calls: z
        .array(
          z.object({
            tool_call_id: z.string().optional(),
            function_name: z.string(),
            arguments: z.unknown(),
          }),
        )
        .optional(),
      observation: z
        .object({
          results: z.array(z.object({ source_call_id: z.string().optional(), content: z.string() })),
        })
        .optional(),
      metrics: stepMetricsSchema.optional(),
    }),
  ),
  final_metrics: z.record(z.string(), z.unknown()).optional(),
});
export type ViewTrajectory = z.infer<typeof viewTrajectorySchema>;

export const MAX_TRAJECTORY_BYTES = 64 * 1024 * 1024;
/**
 * Deepest nesting of arrays and objects a trajectory may have. Showing it stringifies `arguments`
 * recursively, and 20,000 levels overflow the stack; real tool arguments are a few levels deep.
 */
export const MAX_TRAJECTORY_DEPTH = 1000;

/** Whether a parsed JSON value nests deeper than `max` levels; walks without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

export function loadTrajectory(trialDir: string): Loaded<ViewTrajectory> {
  const path = trialFile(trialDir, "agent", "trajectory.json");
  if (path === null) return { state: "missing" };
  if (statSync(path).size > MAX_TRAJECTORY_BYTES) return { state: "invalid", reason: "larger than 64 MB" };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    return { state: "invalid", reason: `not JSON: ${errorMessage(e)}` };
  }
  if (nestsDeeperThan(raw, MAX_TRAJECTORY_DEPTH))
    return { state: "invalid", reason: `nested deeper than ${MAX_TRAJECTORY_DEPTH} levels` };
  const parsed = viewTrajectorySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { state: "invalid", reason: `${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}` };
  }
  return { state: "ok", value: parsed.data };
}

const MAX_INSTRUCTION_BYTES = 256 * 1024;

/**
 * The task's instruction, read from the task folder recorded in the result. The task's author
 * controls that folder, so anything but a regular file there (a folder, a FIFO, a link) is
 * reported as unreadable instead of being followed, waited on or failing the page.
 */
export function loadInstruction(taskPath: string): Loaded<{ text: string; skipped: number }> {
  try {
    const head = readHead(join(taskPath, "instruction.md"), MAX_INSTRUCTION_BYTES);
    return head === null ? { state: "missing" } : { state: "ok", value: head };
  } catch (e) {
    return { state: "invalid", reason: errorMessage(e) };
  }
}
