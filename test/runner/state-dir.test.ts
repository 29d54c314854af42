import { basename } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { trialStateDir } from "../../src/runner/state-dir.js";

describe("a trial's sandbox state folder", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("is another path for every trial, even with the same id in the same millisecond", () => {
    // A RES verifier names every child's trial child-oracle-1000; `scale -n` runs them at once.
    vi.spyOn(Date, "now").mockReturnValue(1_700_000_000_000);
    const dirs = Array.from({ length: 500 }, () => trialStateDir("child-oracle-1000"));
    expect(new Set(dirs).size).toBe(dirs.length);
  });

  it("keeps the owner's pid first, for the sweep of stale state, and no path separators from the id", () => {
    const name = basename(trialStateDir("../../etc/x y"));
    expect(name.startsWith(`longhaul-${process.pid}-`)).toBe(true);
    expect(name).toMatch(/^longhaul-\d+-[A-Za-z0-9._-]+$/);
    expect(name).not.toContain("/");
  });
});
