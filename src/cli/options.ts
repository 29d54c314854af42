import { UserError } from "../core/index.js";

/** Commander option parsers that fail with one clear line. */
export function positiveInt(name: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0)
      throw new UserError(`${name} must be a positive integer, got "${value}"`);
    return n;
  };
}

export function nonNegativeInt(name: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0)
      throw new UserError(`${name} must be a whole number ≥ 0, got "${value}"`);
    return n;
  };
}

export function positiveNumber(name: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0)
      throw new UserError(`${name} must be a positive number, got "${value}"`);
    return n;
  };
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `k=v` pairs from repeated --agent-opt flags. */
export function parseKeyValues(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UserError(`--agent-opt expects KEY=VALUE, got "${pair}"`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

export function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
