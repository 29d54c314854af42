import { closeSync, readSync, statSync } from "node:fs";
import type { z } from "zod";
import { errorMessage } from "../core/index.js";
import { type ReadAt, SCAN_CHUNK_BYTES, type Span, scanSteps } from "./steps-scan.js";
import {
  type Loaded,
  loadTrajectory,
  MAX_TRAJECTORY_BYTES,
  MAX_TRAJECTORY_DEPTH,
  openRegular,
  trialFile,
  type ViewTrajectory,
  viewTrajectorySchema,
} from "./trial-files.js";

export type Step = ViewTrajectory["steps"][number];

/** The ends of a trajectory, or a window of its steps, as the trial page shows it. */
export interface TrajectoryEdges {
  agent: ViewTrajectory["agent"];
  /** Steps in the file. */
  total: number;
  /** Null for the ends of the trajectory; else the position (0-based) of the window `first` holds. */
  from: number | null;
  /** Its first steps, or the window's, in file order (at most `edge`). */
  first: Step[];
  /**
   * Its last steps, in file order (at most `edge`; the same steps as `first` when there are few).
   * Empty for a window.
   */
  last: Step[];
  /**
   * Whether every step was parsed and checked. False for a file over FULL_PARSE_BYTES: there only
   * the steps in `first` and `last` were; the others were counted.
   */
  checked_all: boolean;
  /** The file's size in bytes. */
  bytes: number;
}

/**
 * Largest trajectory parsed whole for the trial page. Above it only the steps shown are parsed:
 * a 60 MB file of 1.3 million small steps took 4 s and 650 MB to parse whole for every view,
 * holding up every other request. Below it a page shows exactly what parsing the whole file gives.
 */
export const FULL_PARSE_BYTES = 8 * 1024 * 1024;

const stepSchema = viewTrajectorySchema.shape.steps.element;
const agentSchema = viewTrajectorySchema.shape.agent;

/**
 * The first and last `edge` steps of a trial's trajectory, or the `edge` steps from position
 * `from` (0-based), and how many there are.
 */
export function loadTrajectoryEdges(
  trialDir: string,
  edge: number,
  from: number | null = null,
): Loaded<TrajectoryEdges> {
  const path = trialFile(trialDir, "agent", "trajectory.json");
  if (path === null) return { state: "missing" };
  const bytes = statSync(path).size;
  if (bytes > MAX_TRAJECTORY_BYTES) return { state: "invalid", reason: "larger than 64 MB" };
  if (bytes <= FULL_PARSE_BYTES) {
    const whole = loadTrajectory(trialDir);
    return whole.state === "ok"
      ? { state: "ok", value: edgesOfWhole(whole.value, edge, bytes, from) }
      : whole;
  }
  const file = openRegular(path);
  if (file === null) return { state: "missing" };
  try {
    const read: ReadAt = (buf, position) => readSync(file.fd, buf, 0, buf.length, position);
    return edgesOf(read, file.size, edge, SCAN_CHUNK_BYTES, from);
  } finally {
    closeSync(file.fd);
  }
}

/** The edges of a trajectory parsed whole. */
export function edgesOfWhole(
  t: ViewTrajectory,
  edge: number,
  bytes: number,
  from: number | null = null,
): TrajectoryEdges {
  return {
    agent: t.agent,
    total: t.steps.length,
    from,
    first: t.steps.slice(from ?? 0, (from ?? 0) + edge),
    last: from === null ? t.steps.slice(Math.max(0, t.steps.length - edge)) : [],
    checked_all: true,
    bytes,
  };
}

/**
 * The edges of a large trajectory of `bytes` bytes, read through `read`: one walk in small chunks,
 * then only the steps kept (and the agent) are read again and parsed, so the file is never held
 * in memory whole.
 */
export function edgesOf(
  read: ReadAt,
  bytes: number,
  edge: number,
  chunkBytes = SCAN_CHUNK_BYTES,
  from: number | null = null,
): Loaded<TrajectoryEdges> {
  const scanned = scanSteps(read, edge, MAX_TRAJECTORY_DEPTH, chunkBytes, from ?? 0);
  if (!scanned.ok) return { state: "invalid", reason: scanned.reason };
  const { scan } = scanned;
  try {
    const agent = scan.agent === null ? undefined : check(agentSchema, parseSpan(read, scan.agent), "agent");
    const first = scan.first.map((s, i) => check(stepSchema, parseSpan(read, s), `steps.${(from ?? 0) + i}`));
    const lastFrom = scan.total - scan.last.length;
    // Steps already parsed for `first` are reused (they overlap when there are under 2 × edge).
    const last =
      from !== null
        ? []
        : scan.last.map((s, k) => {
            const index = lastFrom + k;
            return first[index] ?? check(stepSchema, parseSpan(read, s), `steps.${index}`);
          });
    return {
      state: "ok",
      value: { agent, total: scan.total, from, first, last, checked_all: false, bytes },
    };
  } catch (e) {
    if (e instanceof BadPart) return { state: "invalid", reason: e.message };
    throw e;
  }
}

/** A part of the trajectory that is not what the viewer shows; its message is the page's reason. */
class BadPart extends Error {}

function parseSpan(read: ReadAt, [start, end]: Span): unknown {
  const buf = Buffer.alloc(end - start);
  let n = 0;
  for (let got = -1; n < buf.length && got !== 0; n += got) got = read(buf.subarray(n), start + n);
  try {
    return JSON.parse(buf.toString("utf8", 0, n));
  } catch (e) {
    throw new BadPart(`not JSON: ${errorMessage(e)}`);
  }
}

function check<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = [where, ...(issue?.path ?? []).map(String)].join(".");
  throw new BadPart(`${path}: ${issue?.message ?? "invalid"}`);
}
