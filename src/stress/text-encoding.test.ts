import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHARSETS, decodeText, encodeText } from "./text-encoding.js";

// Well-formed Unicode without CR (CRLF is what the encoder adds) and without a leading U+FEFF.
const text = fc.string({ unit: "grapheme" }).map((s) => s.replace(/\r/g, "").replace(/^\uFEFF+/, ""));

describe("text encodings", () => {
  it("decode(encode(s)) = s for every charset, BOM choice and newline style, and the spec is detected", () => {
    fc.assert(
      fc.property(
        text,
        fc.constantFrom(...CHARSETS),
        fc.boolean(),
        fc.constantFrom("lf", "crlf" as const),
        (s, charset, bom, newline) => {
          const spec = { charset, bom: charset === "utf-8" ? bom : true, newline };
          const out = decodeText(encodeText(s, spec));
          expect(out.text).toBe(s);
          expect(out.spec.charset).toBe(charset);
          expect(out.spec.bom).toBe(spec.bom);
          if (s.includes("\n")) expect(out.spec.newline).toBe(newline);
        },
      ),
    );
  });

  it("writes the standard BOMs and byte orders", () => {
    expect([...encodeText("A\n", { charset: "utf-16le", bom: true, newline: "crlf" })]).toEqual([
      0xff, 0xfe, 0x41, 0, 0x0d, 0, 0x0a, 0,
    ]);
    expect([...encodeText("A", { charset: "utf-16be", bom: true, newline: "lf" })]).toEqual([
      0xfe, 0xff, 0, 0x41,
    ]);
    expect([...encodeText("é", { charset: "utf-8", bom: true, newline: "lf" })]).toEqual([
      0xef, 0xbb, 0xbf, 0xc3, 0xa9,
    ]);
    expect(
      Buffer.from(encodeText("héllo\n", { charset: "utf-16le", bom: true, newline: "lf" })).toString(
        "utf16le",
      ),
    ).toBe("\uFEFFhéllo\n");
  });

  it("keeps CRLF when asked not to normalise", () => {
    const bytes = encodeText("a\nb", { charset: "utf-8", bom: false, newline: "crlf" });
    expect(decodeText(bytes, { normalizeNewlines: false }).text).toBe("a\r\nb");
  });
});
