import { readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { type Loaded, trialFile } from "./trial-files.js";

/** A trial's terminal recording (`agent/recording.cast`, asciinema v2), as the player replays it. */

export interface Recording {
  width: number;
  height: number;
  /** Output events only, as [seconds since start, text]; input echoes are already in the output. */
  events: [number, string][];
  /** Lines that were not valid events (a recording cut off mid-write ends with one). */
  skipped_lines: number;
  /**
   * Lines at the start that were not read, so that only the last MAX_CAST_EVENTS output events
   * are kept (0 for any usual recording).
   */
  omitted_lines: number;
  duration: number;
}

const castHeaderSchema = z.object({
  version: z.literal(2),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
const castEventSchema = z.tuple([z.number().nonnegative(), z.string(), z.string()]);

const MAX_CAST_BYTES = 64 * 1024 * 1024;

export function castPath(trialDir: string): string | null {
  return trialFile(trialDir, "agent", "recording.cast");
}

/**
 * Most output events a recording is served with: the last ones, which end on the final screen.
 * Each line costs a JSON parse, and a 60 MB file of one-character events (3 million lines) took
 * 9 s, blocking every other request, and 1 GB to serve whole.
 */
export const MAX_CAST_EVENTS = 200_000;

/** Parses an asciinema v2 recording, keeping at most its last `maxEvents` output events. */
export function parseCast(text: string, maxEvents = MAX_CAST_EVENTS): Loaded<Recording> {
  const firstBreak = text.indexOf("\n");
  let header: z.infer<typeof castHeaderSchema>;
  try {
    const parsed = castHeaderSchema.safeParse(
      JSON.parse(firstBreak === -1 ? text : text.slice(0, firstBreak)),
    );
    if (!parsed.success) return { state: "invalid", reason: "first line is not an asciinema v2 header" };
    header = parsed.data;
  } catch {
    return { state: "invalid", reason: "first line is not JSON" };
  }
  const events: [number, string][] = [];
  let skipped = 0;
  let omitted = 0;
  // Walked line by line from the end, without splitting the whole text, so a long recording
  // costs about as much as the part that is kept.
  const bodyStart = firstBreak === -1 ? text.length + 1 : firstBreak + 1;
  let end = text.length;
  while (end >= bodyStart) {
    if (events.length >= maxEvents) {
      omitted = countLines(text, bodyStart, end);
      break;
    }
    const start = text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(start, end);
    end = start - 1;
    if (line.trim() === "") continue;
    const ev = castEvent(line);
    if (ev === null) skipped++;
    else if (ev[1] === "o") events.push([ev[0], ev[2]]);
  }
  events.reverse();
  const duration = events.reduce((m, e) => Math.max(m, e[0]), 0);
  return {
    state: "ok",
    value: {
      width: header.width,
      height: header.height,
      events,
      skipped_lines: skipped,
      omitted_lines: omitted,
      duration,
    },
  };
}

function castEvent(line: string): z.infer<typeof castEventSchema> | null {
  try {
    const parsed = castEventSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** How many lines text[from, to) holds (one more than its line breaks). */
function countLines(text: string, from: number, to: number): number {
  let n = 1;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

export function loadRecording(trialDir: string): Loaded<Recording> {
  const path = castPath(trialDir);
  if (path === null) return { state: "missing" };
  if (statSync(path).size > MAX_CAST_BYTES) return { state: "invalid", reason: "larger than 64 MB" };
  return parseCast(readFileSync(path, "utf8"));
}
