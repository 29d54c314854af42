import { sha256 } from "../core/canonical-json.js";
import type { Rng } from "../core/rng.js";
import { concatBytes } from "./bytes.js";
import { type FileTree, hexToken, StressError } from "./types.js";

export interface SplitManifest {
  format: "longhaul-parts/1";
  total_bytes: number;
  sha256: string;
  /** In joining order; part names are random, so sorting names does not give this order. */
  parts: { path: string; offset: number; length: number; sha256: string }[];
}

export interface SplitOptions {
  parts: number;
  /** line: cut only right after "\n" (parts may then be fewer than asked). */
  align?: "byte" | "line";
  prefix?: string;
}

function cutPoints(rng: Rng, data: Uint8Array, parts: number, align: "byte" | "line"): number[] {
  const candidates: number[] = [];
  if (align === "line") {
    for (let i = 0; i < data.length - 1; i++) if (data[i] === 0x0a) candidates.push(i + 1);
  } else for (let i = 1; i < data.length; i++) candidates.push(i);
  const chosen = rng
    .shuffle(candidates)
    .slice(0, Math.max(0, parts - 1))
    .sort((a, b) => a - b);
  return [0, ...chosen, data.length];
}

export function splitBytes(
  rng: Rng,
  data: Uint8Array,
  options: SplitOptions,
): { files: FileTree; manifest: SplitManifest } {
  if (options.parts < 1) throw new StressError("splitBytes: parts must be ≥ 1");
  const cuts = cutPoints(rng, data, options.parts, options.align ?? "byte");
  const files: FileTree = {};
  const parts: SplitManifest["parts"] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const offset = cuts[i] as number;
    const chunk = data.slice(offset, cuts[i + 1] as number);
    let path = `${options.prefix ?? "part"}-${hexToken(rng, 8)}`;
    while (path in files) path = `${options.prefix ?? "part"}-${hexToken(rng, 8)}`;
    files[path] = chunk;
    parts.push({ path, offset, length: chunk.length, sha256: sha256(chunk) });
  }
  return {
    files,
    manifest: { format: "longhaul-parts/1", total_bytes: data.length, sha256: sha256(data), parts },
  };
}

/** Concatenate parts in manifest order, checking every digest and the total. */
export function joinParts(files: FileTree, manifest: SplitManifest): Uint8Array {
  const chunks = manifest.parts.map((p) => {
    const chunk = files[p.path];
    if (chunk === undefined) throw new StressError(`${p.path}: missing part`);
    if (sha256(chunk) !== p.sha256) throw new StressError(`${p.path}: sha256 mismatch`);
    return chunk;
  });
  const whole = concatBytes(chunks);
  if (sha256(whole) !== manifest.sha256)
    throw new StressError("joined parts do not match the manifest sha256");
  return whole;
}

export interface Truncation {
  data: Uint8Array;
  cut: { offset: number; length: number; sha256: string; lines: number };
}

/** Cut off the tail: at most maxFraction of the bytes, at least one byte when data is non-empty. */
export function truncateBytes(
  rng: Rng,
  data: Uint8Array,
  options: { maxFraction?: number; align?: "byte" | "line" } = {},
): Truncation {
  const maxCut = Math.max(1, Math.floor(data.length * (options.maxFraction ?? 0.3)));
  let offset = data.length - rng.int(Math.min(1, data.length), Math.min(maxCut, data.length));
  if (options.align === "line") {
    // Move the cut back to just after the previous newline (or the start).
    while (offset > 0 && data[offset - 1] !== 0x0a) offset--;
  }
  const removed = data.subarray(offset);
  let lines = 0;
  for (const b of removed) if (b === 0x0a) lines++;
  return {
    data: data.slice(0, offset),
    cut: { offset, length: removed.length, sha256: sha256(removed), lines },
  };
}
