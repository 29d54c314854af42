import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../core/rng.js";
import { KEY_STYLES, normalizeKey, renameFields, restoreFields, splitWords, styleKey } from "./fields.js";
import type { Row } from "./types.js";

// Words starting with two letters: "aBC" (one-letter words) or "A0A0" (pascal "a0 a0") are inherently
// ambiguous, see splitWords.
const word = fc.stringMatching(/^[a-z]{2}[a-z0-9]{0,4}$/);
const words = fc.array(word, { minLength: 1, maxLength: 4 });
const keyOf = (ws: string[], style: (typeof KEY_STYLES)[number]): string => styleKey(ws.join("_"), style);
const rows = fc
  .uniqueArray(fc.tuple(words, fc.constantFrom(...KEY_STYLES)), {
    minLength: 1,
    maxLength: 6,
    selector: ([w]) => w.join("_"),
  })
  .chain((keys) =>
    fc.array(
      fc
        .tuple(...keys.map(() => fc.oneof(fc.integer(), fc.string(), fc.constant(null))))
        .map((vals) => Object.fromEntries(keys.map(([w, s], i) => [keyOf(w, s), vals[i] ?? null]))),
      { minLength: 1, maxLength: 5 },
    ),
  );

describe("key styles", () => {
  it("every style of a key splits back into the same words", () => {
    fc.assert(
      fc.property(words, fc.constantFrom(...KEY_STYLES), fc.constantFrom(...KEY_STYLES), (ws, a, b) => {
        const k = keyOf(ws, a);
        expect(normalizeKey(styleKey(k, b))).toBe(normalizeKey(ws.join("_")));
      }),
    );
  });

  it("styles look as documented", () => {
    const k = "maxTempCelsius";
    expect(KEY_STYLES.map((s) => styleKey(k, s))).toEqual([
      "maxTempCelsius",
      "MaxTempCelsius",
      "max_temp_celsius",
      "max-temp-celsius",
      "MAX_TEMP_CELSIUS",
      "max.temp.celsius",
      "Max Temp Celsius",
    ]);
    expect(splitWords("userID_v2")).toEqual(["user", "id", "v2"]);
  });
});

describe("renameFields", () => {
  it("is one-to-one and restoreFields recovers the rows", () => {
    fc.assert(
      fc.property(rows, fc.integer(), (input: Row[], seed) => {
        const aliases = Object.fromEntries(Object.keys(input[0] ?? {}).map((k) => [k, ["alias", `${k}Alt`]]));
        const { rows: renamed, mapping } = renameFields(new Rng(seed), input, { aliases, aliasRate: 0.5 });
        expect(Object.keys(mapping).length).toBe(new Set(Object.values(mapping)).size);
        expect(restoreFields(renamed, mapping)).toEqual(input);
        renamed.forEach((r, i) => {
          expect(Object.values(r)).toEqual(Object.values(input[i] ?? {}));
        });
      }),
    );
  });

  it("a fixed style renames every key to that style", () => {
    const { rows: out } = renameFields(new Rng(3), [{ first_name: "a", lastName: "b" }], { style: "kebab" });
    expect(out).toEqual([{ "first-name": "a", "last-name": "b" }]);
  });
});
