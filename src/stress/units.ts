import { type Row, StressError } from "./types.js";

export type Quantity = "length" | "mass" | "temperature" | "energy" | "time";
export const QUANTITIES = ["length", "mass", "temperature", "energy", "time"] as const;

/** Factor to the SI unit of the quantity; all are exact by definition (BTU is the IT BTU, cal the thermochemical). */
const LINEAR: Record<Exclude<Quantity, "temperature">, Record<string, number>> = {
  length: {
    m: 1,
    km: 1000,
    cm: 0.01,
    mm: 0.001,
    um: 1e-6,
    in: 0.0254,
    ft: 0.3048,
    yd: 0.9144,
    mi: 1609.344,
    nmi: 1852,
  },
  mass: { kg: 1, g: 0.001, mg: 1e-6, t: 1000, lb: 0.45359237, oz: 0.45359237 / 16 },
  energy: {
    J: 1,
    kJ: 1000,
    MJ: 1e6,
    cal: 4.184,
    kcal: 4184,
    Wh: 3600,
    kWh: 3.6e6,
    eV: 1.602176634e-19,
    BTU: 1055.05585262,
  },
  time: { s: 1, ms: 0.001, us: 1e-6, ns: 1e-9, min: 60, h: 3600, d: 86400 },
};
const TEMPERATURE = ["K", "C", "F", "R"] as const;

export function unitsOf(quantity: Quantity): string[] {
  return quantity === "temperature" ? [...TEMPERATURE] : Object.keys(LINEAR[quantity]);
}

export function quantityOf(unit: string): Quantity {
  for (const q of QUANTITIES) if (unitsOf(q).includes(unit)) return q;
  throw new StressError(`unknown unit ${unit}`);
}

function toKelvin(v: number, unit: string): number {
  switch (unit) {
    case "K":
      return v;
    case "C":
      return v + 273.15;
    case "F":
      return ((v + 459.67) * 5) / 9;
    case "R":
      return (v * 5) / 9;
  }
  throw new StressError(`unknown temperature unit ${unit}`);
}

function fromKelvin(k: number, unit: string): number {
  switch (unit) {
    case "K":
      return k;
    case "C":
      return k - 273.15;
    case "F":
      return (k * 9) / 5 - 459.67;
    case "R":
      return (k * 9) / 5;
  }
  throw new StressError(`unknown temperature unit ${unit}`);
}

/**
 * Convert between units of one quantity. Round trips agree to 1e-9 relative; for temperatures
 * (affine scales) the bound is 1e-9·max(|v|, 1), since 0 °C is not 0 K.
 */
export function convertUnit(value: number, from: string, to: string): number {
  const q = quantityOf(from);
  if (quantityOf(to) !== q)
    throw new StressError(`cannot convert ${from} (${q}) to ${to} (${quantityOf(to)})`);
  if (from === to) return value;
  if (q === "temperature") {
    if (from === "C" && to === "F") return (value * 9) / 5 + 32;
    if (from === "F" && to === "C") return ((value - 32) * 5) / 9;
    return fromKelvin(toKelvin(value, from), to);
  }
  const table = LINEAR[q];
  return (value * (table[from] as number)) / (table[to] as number);
}

export interface UnitChange {
  field: string;
  /** The field's name after the change (suffix mode appends "_<unit>"). */
  newField: string;
  from: string;
  to: string;
  /** suffix: the unit is in the field name; column: a "<field>_unit" column states it. */
  label: "suffix" | "column";
}

/** Convert one numeric column to another unit and state the unit, by name suffix or an extra column. */
export function changeUnits(
  rows: readonly Row[],
  change: Omit<UnitChange, "newField">,
): { rows: Row[]; change: UnitChange } {
  const newField = change.label === "suffix" ? `${change.field}_${change.to}` : change.field;
  const rowsOut = rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).flatMap(([k, v]) => {
        if (k !== change.field) return [[k, v]];
        const converted = typeof v === "number" ? convertUnit(v, change.from, change.to) : v;
        return change.label === "suffix"
          ? [[newField, converted]]
          : [
              [k, converted],
              [`${k}_unit`, change.to],
            ];
      }),
    ),
  );
  return { rows: rowsOut, change: { ...change, newField } };
}
