import { closeSync, createReadStream, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { type Context, Hono } from "hono";
import {
  errorMessage,
  isLonghaulError,
  readUserText,
  type TrialResult,
  type WorldCce,
} from "../core/index.js";
import { parseJobConfig } from "../store/job-config.js";
import { type JobRow, TrialQuery, type TrialRow, UnreadableTrialError } from "../store/trial-query.js";
import { readRunFile, type WorldReplayView, worldReplayView } from "../world/trial/replay-view.js";
import { hostAllowed } from "./host-check.js";
import { errorPage } from "./html.js";
import { jobPage, jobsPage } from "./list-pages.js";
import { checkId, insideJobsDir, parseTrialListQuery, parseTrialPageQuery, toPageRequest } from "./params.js";
import { castPath, loadRecording } from "./recording-file.js";
import { loadTrajectoryEdges } from "./trajectory-file.js";
import { trajectoryJsonServer } from "./trajectory-json-route.js";
import { TRAJECTORY_EDGE_STEPS, TRAJECTORY_WINDOW_STEPS } from "./trajectory-section.js";
import { loadInstruction, openRegular, readTail, trialFile } from "./trial-files.js";
import { type TrialView, trialPage } from "./trial-page.js";

/** Where the viewer reads jobs from. */
export interface ViewerOptions {
  jobsDir: string;
  /**
   * Host names served besides 127.0.0.1, localhost and [::1] (say, the address the viewer was
   * told to listen on). Requests naming any other host are refused with 403.
   */
  allowedHosts?: readonly string[];
}

/** The viewer as a Hono app (serve it or call `app.request`), and how to release its index. */
export interface ViewerApp {
  app: Hono;
  jobsDir: string;
  close(): Promise<void>;
}

/** The policy of every answer that is not a page (JSON, logs): nothing runs, loads or frames it. */
const DATA_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** A request for something that does not exist: 404, as HTML for pages and JSON under /api. */
class NotFound extends Error {}

const LOG_TAIL_BYTES = 64 * 1024;
/** World replays kept in memory (each is a full replay of the run; paging back and forth is common). */
const REPLAY_CACHE = 16;
/**
 * Largest run file replayed. It is read and parsed whole, so without a bound a run file of
 * gigabytes would be read into memory before failing; real ones are far smaller.
 */
const MAX_RUN_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The results viewer: server-rendered pages plus the JSON API they are built from. Reads only;
 * the SQLite index answers every list, and a trial's folder is read only after the index has
 * confirmed the trial exists.
 */
export async function createViewerApp(opts: ViewerOptions): Promise<ViewerApp> {
  const jobsDir = resolve(opts.jobsDir);
  const query = await TrialQuery.open(jobsDir);
  // Trial files are looked up below the jobs folder's real path, so that a job or trial folder
  // that is a link leads nowhere (trialFile does not resolve the folder it is given).
  const realJobsDir = realpathSync(jobsDir);
  const app = new Hono();
  const allowedHosts = opts.allowedHosts ?? [];
  const replays = new Map<string, { stamp: string; view: WorldReplayView }>();
  const trajectories = trajectoryJsonServer();

  /** A run file's replay view, rebuilt when the file changed (a resumed job can rewrite a trial). */
  function replayOf(path: string, cce: WorldCce | undefined): WorldReplayView {
    const st = statSync(path);
    const stamp = `${st.mtimeMs}:${st.size}:${cce === undefined ? "-" : `${cce.closure.length}/${cce.witnesses.join(",")}`}`;
    const hit = replays.get(path);
    if (hit?.stamp === stamp) return hit.view;
    const view = worldReplayView(readRunFile(path), cce ?? null);
    replays.delete(path);
    replays.set(path, { stamp, view });
    for (const key of replays.keys()) {
      if (replays.size <= REPLAY_CACHE) break;
      replays.delete(key);
    }
    return view;
  }

  async function job(c: Context): Promise<JobRow> {
    const id = checkId("job", c.req.param("job") ?? "");
    const row = await query.getJob(id);
    if (row === null) throw new NotFound(`no job ${id}`);
    return row;
  }

  async function trial(c: Context): Promise<{ result: TrialResult; dir: string }> {
    const jobId = checkId("job", c.req.param("job") ?? "");
    const trialId = checkId("trial", c.req.param("trial") ?? "");
    const result = await query.getTrial(jobId, trialId);
    if (result === null) throw new NotFound(`no trial ${trialId} in job ${jobId}`);
    return { result, dir: insideJobsDir(realJobsDir, jobId, trialId) };
  }

  async function trialList(c: Context, jobId: string) {
    const q = parseTrialListQuery(c.req.query());
    const page = await query.page(jobId, toPageRequest(q));
    return { q, page, reasons: await gradingReasons(jobId, page.rows) };
  }

  /**
   * The first grading error of each grading_error row on the page. The index has no column for
   * it, so those few results are read in full; other rows cost nothing.
   */
  async function gradingReasons(jobId: string, rows: readonly TrialRow[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const row of rows) {
      if (row.outcome !== "grading_error") continue;
      // One damaged row must not take the whole list down; it shows what is wrong in its place.
      let r: TrialResult | null;
      try {
        r = await query.getTrial(jobId, row.trial_id);
      } catch (e) {
        if (!(e instanceof UnreadableTrialError)) throw e;
        out.set(row.trial_id, `result unreadable: ${e.reason}`);
        continue;
      }
      const reason = r?.grading_errors[0] ?? r?.error?.message;
      if (reason !== undefined) out.set(row.trial_id, reason);
    }
    return out;
  }

  /** `stepsFrom` (1 for the first step) asks for a window of steps instead of the trajectory's ends. */
  function trialView(result: TrialResult, dir: string, stepsFrom?: number): TrialView {
    return {
      result,
      instruction: loadInstruction(result.task.path),
      trajectory:
        stepsFrom === undefined
          ? loadTrajectoryEdges(dir, TRAJECTORY_EDGE_STEPS)
          : loadTrajectoryEdges(dir, TRAJECTORY_WINDOW_STEPS, stepsFrom - 1),
      hasRecording: castPath(dir) !== null,
      verifierStdout: readTail(trialFile(dir, "verifier", "test-stdout.txt"), LOG_TAIL_BYTES),
      verifierStderr: readTail(trialFile(dir, "verifier", "test-stderr.txt"), LOG_TAIL_BYTES),
    };
  }

  app.use(async (c, next) => {
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    if (!hostAllowed(host, allowedHosts)) {
      // The message repeats the Host the requester chose: it is JSON that may run and load nothing.
      c.header("x-content-type-options", "nosniff");
      c.header("content-security-policy", DATA_POLICY);
      return c.json({ error: `this viewer does not answer for host ${host}` }, 403);
    }
    await next();
    // Logs and trajectories are agent-written; a browser must never guess them to be HTML.
    c.header("x-content-type-options", "nosniff");
    // Pages carry their own script policy (a <meta>, by the hash of their one script); what a
    // page cannot say in a <meta> is said here. Anything else (JSON, logs) may run nothing at all.
    const html = c.res.headers.get("content-type")?.startsWith("text/html") === true;
    c.header("content-security-policy", html ? "frame-ancestors 'none'; object-src 'none'" : DATA_POLICY);
  });

  // Pages.
  app.get("/", async (c) => c.html(jobsPage(await query.listJobs())));
  app.get("/jobs/:job", async (c) => {
    const row = await job(c);
    const { q, page, reasons } = await trialList(c, row.id);
    const queueUrl = row.status === "interrupted" ? recordedQueueUrl(jobsDir, row.id) : undefined;
    return c.html(jobPage(row, await query.facets(row.id), q, page, reasons, jobsDir, queueUrl));
  });
  app.get("/jobs/:job/trials/:trial", async (c) => {
    const { result, dir } = await trial(c);
    const q = parseTrialPageQuery(c.req.query());
    return c.html(trialPage(trialView(result, dir, q.steps_from)));
  });

  // JSON API.
  app.get("/api/jobs", async (c) => c.json({ jobs: await query.listJobs() }));
  app.get("/api/jobs/:job", async (c) => {
    const row = await job(c);
    return c.json({ job: row, facets: await query.facets(row.id) });
  });
  app.get("/api/jobs/:job/trials", async (c) => {
    const row = await job(c);
    const { q, page, reasons } = await trialList(c, row.id);
    const rows = page.rows.map((r) => ({ ...r, grading_reason: reasons.get(r.trial_id) ?? null }));
    return c.json({ total: page.total, offset: q.offset, limit: q.limit, rows });
  });
  app.get("/api/jobs/:job/trials/:trial", async (c) => {
    const { result, dir } = await trial(c);
    const v = trialView(result, dir);
    return c.json({
      result,
      instruction: v.instruction.state === "ok" ? v.instruction.value.text : null,
      trajectory: v.trajectory.state,
      recording: v.hasRecording,
      verifier: { stdout_tail: v.verifierStdout?.text ?? null, stderr_tail: v.verifierStderr?.text ?? null },
    });
  });
  app.get("/api/jobs/:job/trials/:trial/trajectory", async (c) => {
    const { dir } = await trial(c);
    // Checked whole before the 200: a damaged step is a 422, never a document cut short.
    const t = await trajectories.load(dir);
    if (t.state === "missing") throw new NotFound("this trial has no trajectory");
    if (t.state === "invalid") return c.json({ error: `trajectory.json: ${t.reason}` }, 422);
    const body = t.value.kind === "text" ? t.value.text : t.value.stream;
    return c.body(body, 200, { "content-type": "application/json" });
  });
  app.get("/api/jobs/:job/trials/:trial/recording", async (c) => {
    const { dir } = await trial(c);
    const rec = loadRecording(dir);
    if (rec.state === "missing") throw new NotFound("this trial has no recording");
    if (rec.state === "invalid") return c.json({ error: `recording.cast: ${rec.reason}` }, 422);
    return c.json(rec.value);
  });
  // A world trial's round-by-round replay, rebuilt from its run file (the trial page's player).
  app.get("/api/jobs/:job/trials/:trial/world-replay", async (c) => {
    const { result, dir } = await trial(c);
    const w = result.world;
    if (w === null) throw new NotFound("this trial is not a world trial");
    const path = trialFile(dir, w.run_file);
    if (path === null) throw new NotFound(`the run file ${w.run_file} was not kept`);
    if (statSync(path).size > MAX_RUN_FILE_BYTES)
      return c.json(
        { error: `the run file ${w.run_file} is larger than 64 MB; it is not replayed here` },
        422,
      );
    return c.json(replayOf(path, w.cce));
  });
  app.get("/api/jobs/:job/trials/:trial/files/verifier/:name", async (c) => {
    const { dir } = await trial(c);
    const name = c.req.param("name");
    if (name !== "test-stdout.txt" && name !== "test-stderr.txt")
      throw new NotFound(`no verifier file ${name}`);
    const path = trialFile(dir, "verifier", name);
    const file = path === null ? null : openRegular(path);
    if (file === null) throw new NotFound(`${name} was not recorded`);
    // Streamed, never read whole: a verifier's stdout can run to gigabytes. The length is fixed at
    // the size seen now, so a log still growing is served up to that point. What is streamed is
    // the file that was opened and checked, whatever the path names by then.
    const { fd, size } = file;
    const headers = { "content-type": "text/plain; charset=utf-8", "content-length": String(size) };
    if (c.req.method === "HEAD" || size === 0) {
      closeSync(fd);
      return c.body(null, 200, headers);
    }
    const stream = Readable.toWeb(
      createReadStream("", { fd, start: 0, end: size - 1 }),
    ) as ReadableStream<Uint8Array>;
    return c.body(stream, 200, headers);
  });

  app.notFound((c) => respondError(c, 404, `nothing at ${c.req.path}`));
  app.onError((err, c) => {
    if (err instanceof NotFound) return respondError(c, 404, err.message);
    if (err instanceof UnreadableTrialError) return respondError(c, 422, err.message);
    if (isLonghaulError(err) && err.kind === "user") return respondError(c, 400, err.message);
    return respondError(c, 500, errorMessage(err));
  });

  return { app, jobsDir, close: () => query.close() };
}

function respondError(c: Context, status: 400 | 404 | 422 | 500, message: string): Response {
  if (c.req.path.startsWith("/api/")) return c.json({ error: message }, status);
  return c.html(errorPage(status, message), status);
}

/**
 * The queue an interrupted job ran on, for its resume command; none when its config.json cannot
 * be read (the page shows the job all the same, and the command without --queue).
 */
function recordedQueueUrl(jobsDir: string, jobId: string): string | undefined {
  const path = join(jobsDir, jobId, "config.json");
  try {
    return parseJobConfig(path, readUserText(path)).queue_url;
  } catch {
    return undefined;
  }
}
