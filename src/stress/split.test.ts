import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256 } from "../core/canonical-json.js";
import { Rng } from "../core/rng.js";
import { concatBytes, utf8 } from "./bytes.js";
import { joinParts, splitBytes, truncateBytes } from "./split.js";

describe("splitBytes", () => {
  it("parts joined in manifest order give the data; offsets and lengths are consistent", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 500 }),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom("byte", "line" as const),
        fc.integer(),
        (data, parts, align, seed) => {
          const { files, manifest } = splitBytes(new Rng(seed), data, { parts, align });
          expect(joinParts(files, manifest)).toEqual(data);
          expect(manifest.parts.length).toBeLessThanOrEqual(parts);
          let offset = 0;
          for (const p of manifest.parts) {
            expect(p.offset).toBe(offset);
            offset += p.length;
            if (align === "line" && p.offset > 0) expect(data[p.offset - 1]).toBe(0x0a);
          }
          expect(offset).toBe(data.length);
        },
      ),
    );
  });

  it("gives the requested part count for byte alignment and detects a swapped part", () => {
    const data = utf8("abcdefghijklmnopqrstuvwxyz");
    const { files, manifest } = splitBytes(new Rng(4), data, { parts: 4 });
    expect(manifest.parts.length).toBe(4);
    const [a, b] = manifest.parts;
    const swapped = { ...files, [a?.path as string]: files[b?.path as string] as Uint8Array };
    expect(() => joinParts(swapped, manifest)).toThrow(/sha256/);
  });
});

describe("truncateBytes", () => {
  it("keeps a prefix and reports exactly what was cut", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.constantFrom("byte", "line" as const),
        fc.integer(),
        (data, maxFraction, align, seed) => {
          const { data: kept, cut } = truncateBytes(new Rng(seed), data, { maxFraction, align });
          expect(cut.offset).toBe(kept.length);
          expect(kept.length + cut.length).toBe(data.length);
          expect(concatBytes([kept, data.subarray(cut.offset)])).toEqual(data);
          expect(sha256(data.subarray(cut.offset))).toBe(cut.sha256);
          if (data.length > 0) expect(cut.length).toBeGreaterThan(0);
          if (align === "byte")
            expect(cut.length).toBeLessThanOrEqual(Math.max(1, Math.floor(data.length * maxFraction)));
          if (align === "line" && kept.length > 0) expect(kept[kept.length - 1]).toBe(0x0a);
        },
      ),
    );
  });
});
