import { closeSync, fstatSync, readSync, type Stats } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { ReadAt } from "./steps-scan.js";
import { FULL_PARSE_BYTES } from "./trajectory-file.js";
import {
  JSON_BATCH_BYTES,
  planTrajectoryJson,
  type TrajectoryJsonPlan,
  trajectoryJsonParts,
} from "./trajectory-json.js";
import { type Loaded, loadTrajectory, MAX_TRAJECTORY_BYTES, openRegular, trialFile } from "./trial-files.js";

/** The JSON route's answer: a text for a file parsed whole, a stream for a larger one. */
export type TrajectoryBody =
  | { kind: "text"; text: string }
  | { kind: "stream"; stream: ReadableStream<Uint8Array> };

export interface TrajectoryJsonServer {
  /** A trial's whole trajectory as JSON (the viewer's fields), checked before anything is sent. */
  load(trialDir: string): Promise<Loaded<TrajectoryBody>>;
}

/** Plans kept for files asked for again; each is a few notes per 256 KB of steps. */
const KEPT_PLANS = 8;
/**
 * A plan whose texts are longer than this (a file whose other fields are huge) is not kept once
 * made: the requests already waiting for it share it, and then it is dropped.
 */
const KEPT_PLAN_CHARS = 1024 * 1024;

/** What identifies a file's contents here: a file rewritten or replaced changes it. */
function stamp(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

function planChars(p: Loaded<TrajectoryJsonPlan>): number {
  return p.state === "ok" ? (p.value.whole?.length ?? 0) + p.value.head.length + p.value.tail.length : 0;
}

/**
 * Serves whole trajectories. A file up to `wholeBytes` is parsed whole, as the trial page does; a
 * larger one is checked in batches and streamed (trajectory-json.ts), so a request holds about one
 * batch of steps, not the file. Requests for the same file while it is being checked wait for the
 * same check, and a file asked for again is not checked again while it is unchanged: concurrent
 * requests cost their batches, not a check and a parse each.
 */
export function trajectoryJsonServer(
  wholeBytes = FULL_PARSE_BYTES,
  batchBytes = JSON_BATCH_BYTES,
): TrajectoryJsonServer {
  const plans = new Map<string, { stamp: string; plan: Promise<Loaded<TrajectoryJsonPlan>> }>();

  async function planOf(path: string, fd: number, st: Stats): Promise<Loaded<TrajectoryJsonPlan>> {
    const key = stamp(st);
    let entry = plans.get(path);
    if (entry?.stamp === key) closeSync(fd);
    else {
      const read: ReadAt = (buf, position) => readSync(fd, buf, 0, buf.length, position);
      const plan = planTrajectoryJson(read, st.size, batchBytes).finally(() => closeSync(fd));
      entry = { stamp: key, plan };
    }
    plans.delete(path);
    plans.set(path, entry);
    for (const k of plans.keys()) {
      if (plans.size <= KEPT_PLANS) break;
      plans.delete(k);
    }
    const current = entry;
    try {
      const plan = await current.plan;
      if (planChars(plan) > KEPT_PLAN_CHARS && plans.get(path) === current) plans.delete(path);
      return plan;
    } catch (e) {
      if (plans.get(path) === current) plans.delete(path);
      throw e;
    }
  }

  /**
   * Reads the file as it was checked: opened afresh for each batch, so that nothing stays open
   * for a download left unread, and refused once it has changed.
   */
  function readChecked(path: string, key: string): ReadAt {
    return (buf, position) => {
      const f = openRegular(path);
      if (f === null) throw new Error("trajectory.json was removed while it was being sent");
      try {
        if (stamp(fstatSync(f.fd)) !== key)
          throw new Error("trajectory.json changed while it was being sent");
        return readSync(f.fd, buf, 0, buf.length, position);
      } finally {
        closeSync(f.fd);
      }
    };
  }

  async function load(trialDir: string): Promise<Loaded<TrajectoryBody>> {
    const path = trialFile(trialDir, "agent", "trajectory.json");
    const file = path === null ? null : openRegular(path);
    if (path === null || file === null) return { state: "missing" };
    let st: Stats;
    try {
      st = fstatSync(file.fd);
    } catch (e) {
      closeSync(file.fd);
      throw e;
    }
    if (st.size > MAX_TRAJECTORY_BYTES || st.size <= wholeBytes) {
      closeSync(file.fd);
      const t = loadTrajectory(trialDir);
      return t.state === "ok" ? { state: "ok", value: { kind: "text", text: JSON.stringify(t.value) } } : t;
    }
    const plan = await planOf(path, file.fd, st);
    if (plan.state !== "ok") return plan;
    if (plan.value.whole !== null) return { state: "ok", value: { kind: "text", text: plan.value.whole } };
    return {
      state: "ok",
      value: {
        kind: "stream",
        stream: toStream(trajectoryJsonParts(plan.value, readChecked(path, stamp(st)))),
      },
    };
  }

  return { load };
}

/**
 * A stream that makes each piece only when the reader asks for it: a slow reader holds one
 * piece, never the document. A piece that cannot be made errors the stream, which the server
 * answers by cutting the connection: the client sees a failed download, not a short document.
 * Each piece waits a turn of the event loop first: while the socket takes every piece at once,
 * the server reads the next one in the same chain of promises, and without the wait a fast
 * client held every other request up until the whole document was sent.
 */
function toStream(parts: Generator<string>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await nextTurn();
        try {
          const next = parts.next();
          if (next.done === true) controller.close();
          else controller.enqueue(Buffer.from(next.value, "utf8"));
        } catch (e) {
          controller.error(e);
        }
      },
      cancel() {
        parts.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
