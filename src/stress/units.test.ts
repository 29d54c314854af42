import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changeUnits, convertUnit, QUANTITIES, quantityOf, unitsOf } from "./units.js";

const magnitude = fc.oneof(
  fc.constant(0),
  fc.double({ min: 1e-12, max: 1e12, noNaN: true }),
  fc.double({ min: -1e12, max: -1e-12, noNaN: true }),
);
const unitPair = fc
  .constantFrom(...QUANTITIES)
  .chain((q) => fc.tuple(fc.constant(q), fc.constantFrom(...unitsOf(q)), fc.constantFrom(...unitsOf(q))));

describe("units", () => {
  it("converting there and back agrees to 1e-9 (relative, or vs max(|v|,1) for temperatures)", () => {
    fc.assert(
      fc.property(magnitude, unitPair, (v, [q, from, to]) => {
        const back = convertUnit(convertUnit(v, from, to), to, from);
        const scale = q === "temperature" ? Math.max(Math.abs(v), 1) : Math.abs(v);
        expect(Math.abs(back - v)).toBeLessThanOrEqual(1e-9 * scale);
      }),
    );
  });

  it("matches known equivalences", () => {
    const close = (a: number, b: number): void =>
      expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.abs(b));
    close(convertUnit(1, "mi", "km"), 1.609344);
    close(convertUnit(1, "ft", "in"), 12);
    close(convertUnit(100, "C", "F"), 212);
    close(convertUnit(-40, "F", "C"), -40);
    close(convertUnit(0, "C", "K"), 273.15);
    close(convertUnit(491.67, "R", "C") + 1, 1);
    close(convertUnit(1, "kWh", "MJ"), 3.6);
    close(convertUnit(1, "kcal", "J"), 4184);
    close(convertUnit(1, "lb", "oz"), 16);
    close(convertUnit(1, "d", "min"), 1440);
    expect(quantityOf("nmi")).toBe("length");
    expect(() => convertUnit(1, "kg", "m")).toThrow(/cannot convert/);
  });

  it("changeUnits states the unit by suffix or by column, and the values convert back", () => {
    const rows = [
      { id: 1, temp: 20 },
      { id: 2, temp: null },
    ];
    const suffix = changeUnits(rows, { field: "temp", from: "C", to: "F", label: "suffix" });
    expect(suffix.rows).toEqual([
      { id: 1, temp_F: 68 },
      { id: 2, temp_F: null },
    ]);
    const column = changeUnits(rows, { field: "temp", from: "C", to: "K", label: "column" });
    expect(column.rows[0]).toEqual({ id: 1, temp: 293.15, temp_unit: "K" });
    expect(convertUnit(column.rows[0]?.temp as number, "K", "C")).toBeCloseTo(20, 9);
  });
});
