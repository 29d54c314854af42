import type { Rng } from "../core/rng.js";
import type { RasterImage } from "./png.js";
import { StressError } from "./types.js";

export type Rotation = 90 | 180 | 270;
export const ROTATIONS = [90, 180, 270] as const;

function pixelCopy(
  src: RasterImage,
  sx: number,
  sy: number,
  dst: Uint8Array,
  dstWidth: number,
  dx: number,
  dy: number,
): void {
  const c = src.channels;
  const from = (sy * src.width + sx) * c;
  dst.set(src.data.subarray(from, from + c), (dy * dstWidth + dx) * c);
}

/** Rotate clockwise by 90, 180 or 270 degrees. */
export function rotate(img: RasterImage, degrees: Rotation): RasterImage {
  const swap = degrees !== 180;
  const width = swap ? img.height : img.width;
  const height = swap ? img.width : img.height;
  const data = new Uint8Array(img.data.length);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const [dx, dy] =
        degrees === 90
          ? [img.height - 1 - y, x]
          : degrees === 180
            ? [img.width - 1 - x, img.height - 1 - y]
            : [y, img.width - 1 - x];
      pixelCopy(img, x, y, data, width, dx, dy);
    }
  }
  return { width, height, channels: img.channels, data };
}

export interface CropBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function crop(img: RasterImage, box: CropBox): RasterImage {
  const ok =
    box.x >= 0 &&
    box.y >= 0 &&
    box.width > 0 &&
    box.height > 0 &&
    box.x + box.width <= img.width &&
    box.y + box.height <= img.height;
  if (!ok) throw new StressError(`crop box ${JSON.stringify(box)} is outside ${img.width}×${img.height}`);
  const c = img.channels;
  const data = new Uint8Array(box.width * box.height * c);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.y + y) * img.width + box.x) * c;
    data.set(img.data.subarray(from, from + box.width * c), y * box.width * c);
  }
  return { width: box.width, height: box.height, channels: c, data };
}

/** A seed-chosen crop keeping at least minFraction of each side; the box (offset included) is returned. */
export function randomCrop(
  rng: Rng,
  img: RasterImage,
  minFraction = 0.5,
): { image: RasterImage; box: CropBox } {
  const width = rng.int(Math.max(1, Math.ceil(img.width * minFraction)), img.width);
  const height = rng.int(Math.max(1, Math.ceil(img.height * minFraction)), img.height);
  const box = { x: rng.int(0, img.width - width), y: rng.int(0, img.height - height), width, height };
  return { image: crop(img, box), box };
}

/**
 * Add an integer in [−bound, bound] to every colour sample, clamped to [0, 255], so no sample moves
 * by more than bound. Alpha is left alone unless includeAlpha.
 */
export function addNoise(rng: Rng, img: RasterImage, bound: number, includeAlpha = false): RasterImage {
  if (!Number.isInteger(bound) || bound < 0) throw new StressError("addNoise: bound must be an integer ≥ 0");
  const hasAlpha = img.channels === 2 || img.channels === 4;
  const data = img.data.slice();
  for (let i = 0; i < data.length; i++) {
    if (hasAlpha && !includeAlpha && i % img.channels === img.channels - 1) continue;
    const v = (data[i] as number) + rng.int(-bound, bound);
    data[i] = Math.max(0, Math.min(v, 255));
  }
  return { ...img, data };
}

/** Largest per-sample absolute difference between two same-shaped images. */
export function maxAbsDiff(a: RasterImage, b: RasterImage): number {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels)
    return Number.POSITIVE_INFINITY;
  let max = 0;
  for (let i = 0; i < a.data.length; i++)
    max = Math.max(max, Math.abs((a.data[i] as number) - (b.data[i] as number)));
  return max;
}
