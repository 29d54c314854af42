import fc from "fast-check";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { crc32, decodePng, encodePng, type RasterImage } from "./png.js";

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

/** Expand to RGBA the way pngjs reports pixels, for cross-checking. */
function toRgba(img: RasterImage): Uint8Array {
  const out = new Uint8Array(img.width * img.height * 4);
  for (let p = 0; p < img.width * img.height; p++) {
    const s = img.data.subarray(p * img.channels, (p + 1) * img.channels);
    const [a, b, c, d] = s;
    const rgba =
      img.channels === 1
        ? [a, a, a, 255]
        : img.channels === 2
          ? [a, a, a, b]
          : img.channels === 3
            ? [a, b, c, 255]
            : [a, b, c, d];
    out.set(rgba as number[], p * 4);
  }
  return out;
}

describe("png", () => {
  it("decode(encode(img)) = img for every filter mode, channel count and IDAT split", () => {
    fc.assert(
      fc.property(
        imageArb(),
        fc.constantFrom(...([0, 1, 2, 3, 4, "cycle", "auto"] as const)),
        fc.integer({ min: 1, max: 64 }),
        (img, filter, idatSize) => {
          expect(decodePng(encodePng(img, { filter, idatSize }))).toEqual(img);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("an independent decoder (pngjs) reads what we write", () => {
    fc.assert(
      fc.property(imageArb(), fc.constantFrom(...([0, 1, 2, 3, 4, "cycle"] as const)), (img, filter) => {
        const theirs = PNG.sync.read(Buffer.from(encodePng(img, { filter })));
        expect(theirs.width).toBe(img.width);
        expect(theirs.height).toBe(img.height);
        expect(new Uint8Array(theirs.data)).toEqual(toRgba(img));
      }),
      { numRuns: 50 },
    );
  });

  it("we read what an independent encoder (pngjs, adaptive filters) writes", () => {
    fc.assert(
      fc.property(
        imageArb(16).filter((i) => i.channels === 4),
        (img) => {
          const png = new PNG({ width: img.width, height: img.height });
          png.data = Buffer.from(img.data);
          const bytes = PNG.sync.write(png, { colorType: 6 });
          expect(decodePng(new Uint8Array(bytes))).toEqual(img);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("uses the standard CRC-32 and rejects corrupt or unsupported files", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    const bytes = encodePng({ width: 2, height: 2, channels: 3, data: new Uint8Array(12).fill(7) });
    const corrupt = bytes.slice();
    corrupt[20] = (corrupt[20] as number) ^ 0xff;
    expect(() => decodePng(corrupt)).toThrow(/CRC/);
    expect(() => decodePng(bytes.subarray(0, 30))).toThrow(/png/);
    expect(() => decodePng(new Uint8Array([1, 2, 3]))).toThrow(/signature/);
    const png = new PNG({ width: 2, height: 2 });
    png.data = Buffer.alloc(16, 9);
    const sixteen = PNG.sync.write(png, { colorType: 6, bitDepth: 16 });
    expect(() => decodePng(new Uint8Array(sixteen))).toThrow(/unsupported/);
  });
});
