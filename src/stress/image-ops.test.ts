import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../core/rng.js";
import { perturbImage } from "./image-case.js";
import { addNoise, crop, maxAbsDiff, ROTATIONS, randomCrop, rotate } from "./image-ops.js";
import { decodePng, type RasterImage } from "./png.js";

const imageArb = (maxSide = 12): fc.Arbitrary<RasterImage> =>
  fc
    .tuple(
      fc.integer({ min: 1, max: maxSide }),
      fc.integer({ min: 1, max: maxSide }),
      fc.constantFrom(1, 2, 3, 4 as const),
    )
    .chain(([width, height, channels]) =>
      fc
        .uint8Array({ minLength: width * height * channels, maxLength: width * height * channels })
        .map((data) => ({ width, height, channels, data })),
    );

const back = { 90: 270, 180: 180, 270: 90 } as const;
const px = (img: RasterImage, x: number, y: number): number[] => [
  ...img.data.subarray((y * img.width + x) * img.channels, (y * img.width + x + 1) * img.channels),
];

describe("image operations", () => {
  it("rotating back gives the original; four quarter turns are the identity", () => {
    fc.assert(
      fc.property(imageArb(), fc.constantFrom(...ROTATIONS), (img, r) => {
        expect(rotate(rotate(img, r), back[r])).toEqual(img);
        expect(rotate(rotate(rotate(rotate(img, 90), 90), 90), 90)).toEqual(img);
      }),
    );
  });

  it("90° is clockwise: the top-left pixel goes to the top-right", () => {
    const img: RasterImage = { width: 2, height: 1, channels: 1, data: new Uint8Array([1, 2]) };
    const r = rotate(img, 90);
    expect([r.width, r.height]).toEqual([1, 2]);
    expect([...r.data]).toEqual([1, 2]);
    const tall: RasterImage = { width: 1, height: 2, channels: 1, data: new Uint8Array([1, 2]) };
    expect([...rotate(tall, 90).data]).toEqual([2, 1]);
  });

  it("a crop equals the original's pixels at the stated offset", () => {
    fc.assert(
      fc.property(imageArb(), fc.integer(), (img, seed) => {
        const { image, box } = randomCrop(new Rng(seed), img, 0.3);
        expect([image.width, image.height]).toEqual([box.width, box.height]);
        for (let y = 0; y < box.height; y++)
          for (let x = 0; x < box.width; x++) expect(px(image, x, y)).toEqual(px(img, box.x + x, box.y + y));
      }),
    );
    const img = { width: 2, height: 2, channels: 1 as const, data: new Uint8Array(4) };
    expect(() => crop(img, { x: 1, y: 0, width: 2, height: 1 })).toThrow(/outside/);
  });

  it("noise stays within its bound and leaves alpha alone", () => {
    fc.assert(
      fc.property(imageArb(), fc.nat(40), fc.integer(), (img, bound, seed) => {
        const noisy = addNoise(new Rng(seed), img, bound);
        expect(maxAbsDiff(noisy, img)).toBeLessThanOrEqual(bound);
        if (img.channels % 2 === 0)
          for (let i = img.channels - 1; i < img.data.length; i += img.channels)
            expect(noisy.data[i]).toBe(img.data[i]);
      }),
    );
  });

  it("perturbImage's PNG decodes to the reported image, which undoes to a crop of the original", () => {
    fc.assert(
      fc.property(imageArb(10), fc.integer(), (img, seed) => {
        const out = perturbImage(new Rng(seed), img);
        expect(decodePng(out.png)).toEqual(out.image);
        const unrotated = out.rotation === 0 ? out.image : rotate(out.image, back[out.rotation]);
        const reference = out.crop === null ? img : crop(img, out.crop);
        expect(maxAbsDiff(unrotated, reference)).toBeLessThanOrEqual(out.noiseBound);
      }),
      { numRuns: 60 },
    );
  });
});
