import { readFileSync } from "node:fs";
import { UserError } from "../../core/index.js";
import { createWorld, type World } from "../build/world.js";
import { RUN_FILE_VERSION, type RunFile, runFileSchema, type Session } from "../engine/session.js";
import type { JsonValue, ToolResult, WorldEvent } from "../model/types.js";
import { AGENT_COLOURS, renderMap } from "../render/render.js";
import { checkRunReplay } from "../task/replay.js";

/**
 * What the viewer's round-by-round player shows of a world trial, built by replaying its run file:
 * a map crop around everything the team did, where each agent stood after each round, and each
 * call with its result and whether the success traces back to it. Frame 0 is the start; frame
 * r (1…rounds) is the state after round r (the run file's round r − 1).
 */
export interface WorldReplayView {
  /** The replay's verdict against the recording (the frames come from the replay). */
  verdict: "identical" | "different" | "invalid";
  reason: string;
  /** The drawn region in tiles, pixels per tile, and the map as a PNG data URL. */
  map: { x: number; y: number; w: number; h: number; scale: number; png: string };
  agents: Array<{ id: string; role: string; colour: string }>;
  rounds: number;
  /** Per frame, each agent's [x, y] in `agents` order. */
  frames: Array<Array<[number, number]>>;
  calls: ReplayCall[];
  chat: Array<{ round: number; call: number; agent: number; to: string | null; text: string }>;
  /** Whether the trial has a causal-contribution record (else no call is marked). */
  cce: boolean;
}

export interface ReplayCall {
  /** Index into the run's calls (what `world.cce` refers to). */
  index: number;
  /** The run file's round (0-based): shown in frame round + 1. */
  round: number;
  /** Index into `agents`. */
  agent: number;
  tool: string;
  args: string;
  ok: boolean;
  /** The result message, or the error code and message. */
  result: string;
  /** The tiles walked by a move, corners only, as flat [x0, y0, x1, y1, …]; empty when none. */
  path: number[];
  /** A success witness, another call in the CCE closure, or neither. */
  mark: "witness" | "closure" | null;
}

/** Long argument and result texts are cut: a page shows hundreds of calls. */
const MAX_TEXT = 400;
/** Tiles of map around the team's bounding box, and the smallest side drawn. */
const MARGIN = 6;
const MIN_SIDE = 24;
/** About this many pixels across for the map image. */
const TARGET_PX = 720;

/** Reads and checks a run file; a missing or malformed one is a UserError. */
export function readRunFile(path: string): RunFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new UserError(`${path}: cannot read run file: ${(e as Error).message}`);
  }
  const version = typeof raw === "object" && raw !== null && "version" in raw ? raw.version : undefined;
  if (typeof version === "number" && version !== RUN_FILE_VERSION)
    throw new UserError(
      `${path}: run file version ${version}; this engine replays version ${RUN_FILE_VERSION}`,
    );
  const parsed = runFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`${path}: ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "not a run file"}`);
  }
  return parsed.data;
}

/**
 * Replays `run` (in the generated world of its seed unless `base` is given) and collects the
 * player's data. `cce` is the trial's closure and witnesses (call indices), or null. A run that
 * does not replay at all (another content pack, a call out of turn at the start) is a UserError.
 */
export function worldReplayView(
  run: RunFile,
  cce: { closure: readonly number[]; witnesses: readonly number[] } | null,
  base: World = createWorld(run.worldSeed),
): WorldReplayView {
  const ids = run.agents.map((a) => a.id);
  const frames: Array<Array<[number, number]>> = [];
  const calls: ReplayCall[] = [];
  const chat: WorldReplayView["chat"] = [];
  const witnesses = new Set(cce?.witnesses ?? []);
  const closure = new Set(cce?.closure ?? []);
  let seen = 0;
  const positions = (s: Session): Array<[number, number]> =>
    ids.map((id) => {
      const a = s.state.agents.get(s.state.agentIndex[id] ?? -1);
      return [a?.x ?? 0, a?.y ?? 0];
    });
  const out = checkRunReplay(base, run, {
    start: (s) => {
      frames.push(positions(s));
      seen = s.events.length;
    },
    call: (index, result, s) => {
      const rec = run.calls[index];
      const fresh = s.events.slice(seen);
      seen = s.events.length;
      const round = rec?.round ?? 0;
      const agent = ids.indexOf(rec?.agent ?? "");
      const action = actionOf(fresh);
      calls.push({
        index,
        round,
        agent,
        tool: result.tool,
        args: clipText(JSON.stringify(action?.data.args ?? argsOf(rec?.call))),
        ok: result.ok,
        result: clipText(resultText(result)),
        path: movePath(s.world, fresh),
        mark: witnesses.has(index) ? "witness" : closure.has(index) ? "closure" : null,
      });
      for (const e of fresh)
        if (e.type === "chat" && e.agent !== null)
          chat.push({
            round,
            call: index,
            agent,
            to: typeof e.data.to === "string" ? e.data.to : null,
            text: typeof e.data.text === "string" ? clipText(e.data.text) : "",
          });
      // The round ended (possibly several, when nobody was able to act): one frame each.
      const now = positions(s);
      while (frames.length <= s.round) frames.push(now);
    },
  });
  if (out.session === null) throw new UserError(`the run does not replay: ${out.reason}`);
  const world = out.session.world;
  // A last round the team completed mid-way never ended: its frame is the final state.
  const last = positions(out.session);
  while (frames.length <= run.rounds) frames.push(last);
  return {
    verdict: out.verdict,
    reason: out.reason,
    map: mapCrop(world, frames, calls),
    agents: run.agents.map((a, i) => ({ id: a.id, role: a.role, colour: hex(i) })),
    rounds: frames.length - 1,
    frames,
    calls,
    chat,
    cce: cce !== null,
  };
}

function actionOf(events: readonly WorldEvent[]): WorldEvent | undefined {
  return events.find((e) => e.type === "action");
}

function argsOf(call: unknown): JsonValue {
  if (typeof call === "object" && call !== null && "args" in call) return call.args as JsonValue;
  return null;
}

function resultText(r: ToolResult): string {
  return r.ok ? r.message : `${r.error.code}: ${r.error.message}`;
}

function clipText(s: string): string {
  return s.length <= MAX_TEXT ? s : `${s.slice(0, MAX_TEXT)}…`;
}

function hex(i: number): string {
  const c = AGENT_COLOURS[i % AGENT_COLOURS.length] ?? [0, 0, 0];
  return `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/** The tiles of this call's moves, refined as the renderer does, with straight runs reduced to their ends. */
function movePath(world: World, events: readonly WorldEvent[]): number[] {
  const out: number[] = [];
  for (const e of events) {
    if (e.type !== "moved" || !Array.isArray(e.data.waypoints)) continue;
    const pts = world.paths.refine(e.data.waypoints.flatMap((p) => (isPoint(p) ? [p] : [])));
    pts.forEach((p, k) => {
      const prev = pts[k - 1];
      const next = pts[k + 1];
      const straight =
        prev !== undefined &&
        next !== undefined &&
        p[0] - prev[0] === next[0] - p[0] &&
        p[1] - prev[1] === next[1] - p[1];
      if (!straight) out.push(p[0], p[1]);
    });
  }
  return out;
}

function isPoint(v: JsonValue): v is [number, number] {
  return Array.isArray(v) && typeof v[0] === "number" && typeof v[1] === "number";
}

/** The bounding box of every position and path, with a margin, clamped to the map, rendered. */
function mapCrop(
  world: World,
  frames: ReadonlyArray<ReadonlyArray<[number, number]>>,
  calls: readonly ReplayCall[],
) {
  const box = { x0: Number.POSITIVE_INFINITY, y0: Number.POSITIVE_INFINITY, x1: 0, y1: 0 };
  const add = (x: number, y: number): void => {
    box.x0 = Math.min(box.x0, x);
    box.y0 = Math.min(box.y0, y);
    box.x1 = Math.max(box.x1, x);
    box.y1 = Math.max(box.y1, y);
  };
  for (const f of frames) for (const [x, y] of f) add(x, y);
  for (const c of calls)
    for (let k = 0; k + 1 < c.path.length; k += 2) add(c.path[k] ?? 0, c.path[k + 1] ?? 0);
  const { width, height } = world.map;
  const span = (lo: number, hi: number, size: number): [number, number] => {
    let a = lo - MARGIN;
    let b = hi + MARGIN + 1;
    const grow = Math.max(0, MIN_SIDE - (b - a));
    a -= Math.floor(grow / 2);
    b += Math.ceil(grow / 2);
    a = Math.max(0, a);
    b = Math.min(size, b);
    return [a, Math.max(a + 1, b)];
  };
  const [x0, x1] = span(box.x0, box.x1, width);
  const [y0, y1] = span(box.y0, box.y1, height);
  const region = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  const scale = Math.max(1, Math.min(12, Math.floor(TARGET_PX / Math.max(region.w, region.h))));
  const png = renderMap(world, { region, scale }).toString("base64");
  return { ...region, scale, png: `data:image/png;base64,${png}` };
}
