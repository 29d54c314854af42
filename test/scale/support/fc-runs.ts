import { z } from "zod";

const runsSchema = z.coerce.number().int().positive();

/**
 * How many runs a fast-check property makes: `suite` in the test suite (a fixed-seed sample; every
 * run starts restore processes), or LONGHAUL_FC_RUNS when set, for a larger sweep of the same
 * seed, e.g. `LONGHAUL_FC_RUNS=200 npx vitest run test/scale/resource-roundtrip.test.ts`. With one
 * seed, the suite's runs are the sweep's first ones.
 */
export function fcRuns(suite: number): number {
  const raw = process.env.LONGHAUL_FC_RUNS;
  if (raw === undefined || raw === "") return suite;
  const parsed = runsSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(`LONGHAUL_FC_RUNS must be a positive whole number, not ${JSON.stringify(raw)}`);
  return parsed.data;
}
