import type { Rng } from "../core/rng.js";
import { addNoise, type CropBox, ROTATIONS, type Rotation, randomCrop, rotate } from "./image-ops.js";
import { encodePng, type RasterImage } from "./png.js";

export interface PerturbedImage {
  png: Uint8Array;
  image: RasterImage;
  /** Applied in this order: crop (box in original coordinates), then rotation (clockwise), then noise. */
  crop: CropBox | null;
  rotation: Rotation | 0;
  noiseBound: number;
  notes: string[];
}

/** Seed-chosen crop/rotation/noise, encoded with a seed-chosen filter mode and IDAT split. */
export function perturbImage(
  rng: Rng,
  img: RasterImage,
  options: { crop?: boolean; rotate?: boolean; noiseBound?: number } = {},
): PerturbedImage {
  const notes: string[] = [];
  let image = img;
  let box: CropBox | null = null;
  if (options.crop ?? rng.next() < 0.5) {
    const c = randomCrop(rng, image, 0.6);
    image = c.image;
    box = c.box;
    notes.push(`cropped to ${box.width}×${box.height} at (${box.x}, ${box.y})`);
  }
  let rotation: Rotation | 0 = 0;
  if (options.rotate ?? rng.next() < 0.5) {
    rotation = rng.pick(ROTATIONS);
    image = rotate(image, rotation);
    notes.push(`rotated ${rotation}° clockwise`);
  }
  const noiseBound = options.noiseBound ?? rng.int(0, 8);
  if (noiseBound > 0) {
    image = addNoise(rng, image, noiseBound);
    notes.push(`noise within ±${noiseBound} per sample`);
  }
  const filter = rng.pick(["auto", "cycle", 0, 1, 2, 3, 4] as const);
  const png = encodePng(image, { filter, idatSize: rng.int(64, 8192) });
  return { png, image, crop: box, rotation, noiseBound, notes };
}
