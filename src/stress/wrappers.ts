import { gunzipSync, gzipSync } from "node:zlib";
import type { Rng } from "../core/rng.js";
import { fromUtf8, plainBytes, utf8 } from "./bytes.js";
import { StressError } from "./types.js";

/** "base64-mime" breaks the text into 76-character lines, each ending "\n" (as mail and PEM do). */
export type WrapLayer = "gzip" | "base64" | "base64-mime";
export const WRAP_LAYERS = ["gzip", "base64", "base64-mime"] as const;

function base64Text(data: Uint8Array, mime: boolean): string {
  const b64 = Buffer.from(data.buffer, data.byteOffset, data.length).toString("base64");
  if (!mime) return b64;
  let out = "";
  for (let i = 0; i < b64.length; i += 76) out += `${b64.slice(i, i + 76)}\n`;
  return out;
}

function applyLayer(data: Uint8Array, layer: WrapLayer): Uint8Array {
  switch (layer) {
    // Level 9 and node's fixed gzip header (mtime 0) make the bytes depend on the input only.
    case "gzip":
      return plainBytes(gzipSync(data, { level: 9 }));
    case "base64":
      return utf8(base64Text(data, false));
    case "base64-mime":
      return utf8(base64Text(data, true));
  }
}

/** Apply layers in order: layers[0] is innermost (applied first), the last one is outermost. */
export function wrap(data: Uint8Array, layers: readonly WrapLayer[]): Uint8Array {
  let out = data;
  for (const layer of layers) out = applyLayer(out, layer);
  return out;
}

/** Undo `wrap(data, layers)` given the same list (peels from the outermost). */
export function unwrap(data: Uint8Array, layers: readonly WrapLayer[]): Uint8Array {
  let out = data;
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i] as WrapLayer;
    out = layer === "gzip" ? gunzip(out) : decodeBase64(out);
  }
  return out;
}

function gunzip(data: Uint8Array): Uint8Array {
  try {
    return plainBytes(gunzipSync(data));
  } catch (e) {
    throw new StressError(`not valid gzip data: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;

function decodeBase64(data: Uint8Array): Uint8Array {
  const compact = fromUtf8(data).replace(/\s+/g, "");
  if (compact.length === 0) return new Uint8Array(0);
  if (compact.length % 4 !== 0 || !BASE64_RE.test(compact)) throw new StressError("not valid base64 text");
  return plainBytes(Buffer.from(compact, "base64"));
}

export function isGzip(data: Uint8Array): boolean {
  return data.length >= 18 && data[0] === 0x1f && data[1] === 0x8b && data[2] === 0x08;
}

/**
 * Which base64 layer `data` looks like, or null. Only ASCII base64 alphabet and line breaks,
 * a length that is a multiple of 4, and padding only at the end. Payloads that are themselves
 * such text (e.g. the word "abcd") are indistinguishable; use `unwrap` with stated layers then.
 */
export function detectBase64(data: Uint8Array): "base64" | "base64-mime" | null {
  if (data.length < 4) return null;
  for (const b of data) {
    const ok =
      (b >= 0x41 && b <= 0x5a) ||
      (b >= 0x61 && b <= 0x7a) ||
      (b >= 0x30 && b <= 0x39) ||
      b === 0x2b ||
      b === 0x2f ||
      b === 0x3d ||
      b === 0x0a ||
      b === 0x0d;
    if (!ok) return null;
  }
  const text = fromUtf8(data);
  const compact = text.replace(/[\r\n]/g, "");
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64_RE.test(compact)) return null;
  return text.includes("\n") ? "base64-mime" : "base64";
}

export interface UnwrapResult {
  data: Uint8Array;
  /** The layers found, in `wrap` order (innermost first), so `wrap(result.data, layers)` rebuilds the input. */
  layers: WrapLayer[];
}

/** Detect and peel gzip/base64 layers until neither is recognised (or maxLayers were removed). */
export function unwrapAuto(input: Uint8Array | string, maxLayers = 32): UnwrapResult {
  let data = typeof input === "string" ? utf8(input) : input;
  const peeled: WrapLayer[] = [];
  while (peeled.length < maxLayers) {
    if (isGzip(data)) {
      data = gunzip(data);
      peeled.push("gzip");
      continue;
    }
    const b64 = detectBase64(data);
    if (b64 === null) break;
    data = decodeBase64(data);
    peeled.push(b64);
  }
  return { data, layers: peeled.reverse() };
}

/** A seed-chosen stack of minLayers..maxLayers layers, any order, repeats allowed. */
export function randomLayers(rng: Rng, minLayers = 1, maxLayers = 3): WrapLayer[] {
  const count = rng.int(minLayers, maxLayers);
  const out: WrapLayer[] = [];
  for (let i = 0; i < count; i++) out.push(rng.pick(WRAP_LAYERS));
  return out;
}

/** The conventional file-name suffix for a stack, e.g. [gzip, base64] → ".gz.b64". */
export function layerSuffix(layers: readonly WrapLayer[]): string {
  return layers.map((l) => (l === "gzip" ? ".gz" : ".b64")).join("");
}
