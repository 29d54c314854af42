import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../core/rng.js";
import { fromUtf8, utf8 } from "./bytes.js";
import { detectBase64, randomLayers, unwrap, unwrapAuto, WRAP_LAYERS, wrap } from "./wrappers.js";

const layers = fc.array(fc.constantFrom(...WRAP_LAYERS), { maxLength: 5 });
// JSON-like payloads: never base64 text and never gzip, so auto-detection has an unambiguous stop.
const payload = fc.jsonValue().map((v) => utf8(JSON.stringify({ v })));

describe("wrap/unwrap", () => {
  it("unwrap(wrap(x, L), L) = x for any bytes and any stack", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), layers, (data, stack) => {
        expect(unwrap(wrap(data, stack), stack)).toEqual(data);
      }),
    );
  });

  it("unwrapAuto finds exactly the layers that were applied, in order", () => {
    fc.assert(
      fc.property(payload, layers, (data, stack) => {
        const out = unwrapAuto(wrap(data, stack));
        expect(out.data).toEqual(data);
        expect(out.layers).toEqual(stack);
      }),
    );
  });

  it("mime base64 lines are at most 76 characters and detected as such", () => {
    const data = new Uint8Array(500).map((_, i) => (i * 37) & 0xff);
    const text = fromUtf8(wrap(data, ["base64-mime"]));
    expect(text.split("\n").every((l) => l.length <= 76)).toBe(true);
    expect(detectBase64(utf8(text))).toBe("base64-mime");
    expect(detectBase64(utf8("{not base64}"))).toBeNull();
  });

  it("randomLayers is deterministic for a seed", () => {
    const a = Array.from({ length: 20 }, (_, i) => randomLayers(new Rng(i)));
    const b = Array.from({ length: 20 }, (_, i) => randomLayers(new Rng(i)));
    expect(a).toEqual(b);
    expect(new Set(a.map((l) => l.join())).size).toBeGreaterThan(3);
  });

  it("rejects corrupt layers with a clear error", () => {
    expect(() => unwrap(utf8("%%%"), ["base64"])).toThrow(/base64/);
    expect(() => unwrap(utf8("plain"), ["gzip"])).toThrow(/gzip/);
  });
});
