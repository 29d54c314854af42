import { UserError } from "../core/index.js";

/**
 * Upper bounds of run's counts (docs/cli.md, run's options): past them a job would exhaust memory
 * planning or starting its trials, or retry for hours, long before it did anything useful.
 */
export const RUN_LIMITS = { attempts: 10_000, concurrency: 1024, retries: 100 } as const;

/**
 * Commander option parsers that fail with one clear line. Whole numbers must be safe integers:
 * a larger one (1e30) is not exact, and a job config holding one could never be read back.
 * `max`, where given, keeps out a count that would exhaust memory or time (RUN_LIMITS).
 */
export function positiveInt(name: string, max?: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isInteger(n) || n <= 0)
      throw new UserError(`${name} must be a positive integer, got "${value}"`);
    return atMost(name, n, value, max);
  };
}

export function nonNegativeInt(name: string, max?: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isInteger(n) || n < 0)
      throw new UserError(`${name} must be a whole number ≥ 0, got "${value}"`);
    return atMost(name, n, value, max);
  };
}

function atMost(name: string, n: number, value: string, max = Number.MAX_SAFE_INTEGER): number {
  if (n > max) throw new UserError(`${name} must be at most ${max}, got "${value}"`);
  return n;
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
