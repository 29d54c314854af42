import { deflateSync, inflateSync } from "node:zlib";
import { concatBytes } from "./bytes.js";
import { StressError } from "./types.js";

/** 8-bit pixels, row-major, channels interleaved: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA. */
export interface RasterImage {
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  data: Uint8Array;
}

export type PngFilter = 0 | 1 | 2 | 3 | 4;
const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOR_TYPE: Record<number, number> = { 1: 0, 2: 4, 3: 2, 4: 6 };
const CHANNELS: Record<number, 1 | 2 | 3 | 4> = { 0: 1, 4: 2, 2: 3, 6: 4 };

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array, start = 0xffffffff): number {
  let c = start;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function filterRow(type: PngFilter, row: Uint8Array, prev: Uint8Array, bpp: number): Uint8Array {
  const out = new Uint8Array(row.length);
  for (let i = 0; i < row.length; i++) {
    const a = i >= bpp ? (row[i - bpp] as number) : 0;
    const b = prev[i] as number;
    const c = i >= bpp ? (prev[i - bpp] as number) : 0;
    const x = row[i] as number;
    const pred =
      type === 0 ? 0 : type === 1 ? a : type === 2 ? b : type === 3 ? (a + b) >> 1 : paeth(a, b, c);
    out[i] = (x - pred) & 0xff;
  }
  return out;
}

function checkImage(img: RasterImage): void {
  const ok =
    Number.isInteger(img.width) &&
    Number.isInteger(img.height) &&
    img.width > 0 &&
    img.height > 0 &&
    img.data.length === img.width * img.height * img.channels;
  if (!ok)
    throw new StressError(
      `image: ${img.width}×${img.height}×${img.channels} does not match ${img.data.length} bytes`,
    );
}

export interface EncodeOptions {
  /** A fixed filter for every row, "cycle" (row y uses y mod 5, so all five appear), or "auto" (min abs sum). */
  filter?: PngFilter | "cycle" | "auto";
  /** Split the zlib stream over IDAT chunks of at most this many bytes. */
  idatSize?: number;
}

export function encodePng(img: RasterImage, options: EncodeOptions = {}): Uint8Array {
  checkImage(img);
  const bpp = img.channels;
  const stride = img.width * bpp;
  const raw = new Uint8Array((stride + 1) * img.height);
  let prev: Uint8Array = new Uint8Array(stride);
  for (let y = 0; y < img.height; y++) {
    const row = img.data.subarray(y * stride, (y + 1) * stride);
    const mode = options.filter ?? "auto";
    let type: PngFilter;
    let filtered: Uint8Array;
    if (mode === "auto") {
      let best: { type: PngFilter; data: Uint8Array; cost: number } | null = null;
      for (const t of [0, 1, 2, 3, 4] as const) {
        const data = filterRow(t, row, prev, bpp);
        let cost = 0;
        for (const v of data) cost += v < 128 ? v : 256 - v;
        if (best === null || cost < best.cost) best = { type: t, data, cost };
      }
      type = best?.type ?? 0;
      filtered = best?.data ?? row;
    } else {
      type = mode === "cycle" ? ((y % 5) as PngFilter) : mode;
      filtered = filterRow(type, row, prev, bpp);
    }
    raw[y * (stride + 1)] = type;
    raw.set(filtered, y * (stride + 1) + 1);
    prev = row;
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, img.width);
  view.setUint32(4, img.height);
  ihdr.set([8, COLOR_TYPE[img.channels] as number, 0, 0, 0], 8);
  const z = deflateSync(raw, { level: 9 });
  const size = Math.max(1, options.idatSize ?? z.length);
  const idats: Uint8Array[] = [];
  for (let i = 0; i < z.length; i += size) idats.push(chunk("IDAT", z.subarray(i, i + size)));
  return concatBytes([SIGNATURE, chunk("IHDR", ihdr), ...idats, chunk("IEND", new Uint8Array(0))]);
}

/** Decode an 8-bit, non-interlaced grey/grey+alpha/RGB/RGBA PNG (all five row filters). */
export function decodePng(bytes: Uint8Array): RasterImage {
  for (let i = 0; i < 8; i++) if (bytes[i] !== SIGNATURE[i]) throw new StressError("png: bad signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let at = 8;
  let header: { width: number; height: number; channels: 1 | 2 | 3 | 4 } | null = null;
  const idat: Uint8Array[] = [];
  for (;;) {
    if (at + 12 > bytes.length) throw new StressError("png: truncated (no IEND)");
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (at + 12 + length > bytes.length) throw new StressError(`png: chunk ${type} runs past the end`);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) {
      throw new StressError(`png: bad CRC in ${type}`);
    }
    at += 12 + length;
    if (type === "IHDR") {
      const h = new DataView(data.buffer, data.byteOffset, data.length);
      const [depth, colorType, , , interlace] = data.subarray(8, 13);
      const channels = CHANNELS[colorType as number];
      if (depth !== 8 || channels === undefined || interlace !== 0) {
        throw new StressError(
          `png: unsupported (bit depth ${depth}, color type ${colorType}, interlace ${interlace})`,
        );
      }
      header = { width: h.getUint32(0), height: h.getUint32(4), channels };
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
  }
  if (header === null) throw new StressError("png: no IHDR");
  const { width, height, channels } = header;
  const raw = inflateSync(concatBytes(idat));
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) throw new StressError("png: image data too short");
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const type = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const base = y * stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? (out[base + i - channels] as number) : 0;
      const b = y > 0 ? (out[base - stride + i] as number) : 0;
      const c = y > 0 && i >= channels ? (out[base - stride + i - channels] as number) : 0;
      const x = line[i] as number;
      let pred: number;
      if (type === 0) pred = 0;
      else if (type === 1) pred = a;
      else if (type === 2) pred = b;
      else if (type === 3) pred = (a + b) >> 1;
      else if (type === 4) pred = paeth(a, b, c);
      else throw new StressError(`png: row ${y} has unknown filter ${type}`);
      out[base + i] = (x + pred) & 0xff;
    }
  }
  return { width, height, channels, data: out };
}
