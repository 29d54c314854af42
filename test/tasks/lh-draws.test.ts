import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findPackageRoot } from "../../src/core/package-root.js";

/**
 * randint_of and randbelow_many against random's own methods on seeded generators: the numbers
 * drawn and the generator's state afterwards. With FORCE_SLOW the kit's check of this interpreter
 * is made to fail, so the fallback (random's own methods) is what runs.
 */
const CHECK = [
  "import json, random, sys",
  "sys.path.insert(0, sys.argv[1])",
  "import lh",
  "if sys.argv[3] == 'FORCE_SLOW':",
  "    lh._DRAWS_AGREE.append(False)",
  "rng = random.Random(int(sys.argv[2]))",
  "cases, bad = 0, []",
  "ns = [1, 2, 3, 7, 8, 9, 17, 100, 255, 256, 257, 4096, 65537, 10 ** 6, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40]",
  "for n in ns + [rng.randrange(1, 2 ** 34) for _ in range(20)]:",
  "    for count in (0, 1, 2, rng.randrange(3, 5000)):",
  "        seed = rng.random()",
  "        a, b = random.Random(seed), random.Random(seed)",
  "        got = lh.randbelow_many(a, n, count)",
  "        want = [b.randrange(n) for _ in range(count)]",
  "        cases += 1",
  "        if list(got) != want or a.getstate() != b.getstate() or isinstance(got, bytes) != (n < 256):",
  "            bad.append(['many', n, count])",
  "        lo = rng.randrange(-1000, 1000)",
  "        fast = lh.randint_of(a)",
  "        if [fast(lo, lo + n - 1) for _ in range(50)] != [b.randint(lo, lo + n - 1) for _ in range(50)] or a.getstate() != b.getstate():",
  "            bad.append(['randint', n, lo])",
  "try:",
  "    lh.randint_of(random.Random(1))(5, 4)",
  "    bad.append(['no error for an empty range'])",
  "except ValueError:",
  "    pass",
  "print(json.dumps({'cases': cases, 'bad': bad[:5], 'fast': lh._draws_agree()}))",
  "",
].join("\n");

function run(mode: string): { cases: number; bad: unknown[]; fast: boolean } {
  const r = spawnSync("/usr/bin/python3", ["-I", "-c", CHECK, join(findPackageRoot(), "kit"), "9", mode], {
    encoding: "utf8",
    env: { ...process.env, LONGHAUL_VERIFIER_DIR: "/tmp" },
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { cases: number; bad: unknown[]; fast: boolean };
}

/** Generators draw their hidden cases through these: a different number would change the cases. */
describe("the kit's bulk draws from random.Random", () => {
  it("give random's numbers and leave the generator where random leaves it", () => {
    expect(run("FAST")).toEqual({ cases: 152, bad: [], fast: true });
  });

  it("fall back to random's own methods when the interpreter draws another way", () => {
    expect(run("FORCE_SLOW")).toEqual({ cases: 152, bad: [], fast: false });
  });
});
