import { describe, expect, it } from "vitest";
import { canonicalJson, digestOf } from "./canonical-json.js";
import { InputError, UserError } from "./errors.js";
import { Rng } from "./rng.js";

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"y":2,"z":1}]},"b":1}',
    );
    expect(digestOf({ a: 1, b: 2 })).toBe(digestOf({ b: 2, a: 1 }));
    expect(digestOf({ a: 1 })).not.toBe(digestOf({ a: 2 }));
  });
});

describe("Rng", () => {
  it("keeps each seed on its recorded stream (the verifier kit's Rng draws the same)", () => {
    for (const [seed, a, b] of [
      [1, 2442144158, 3238099751],
      [12345, 518667457, 440444462],
      [4294967295, 835879718, 1921286648],
    ] as const) {
      const r = new Rng(seed);
      expect([r.nextU32(), r.nextU32()], String(seed)).toEqual([a, b]);
    }
  });

  it("is deterministic for a seed and differs across seeds", () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const sa = Array.from({ length: 20 }, () => a.nextU32());
    const sb = Array.from({ length: 20 }, () => b.nextU32());
    const sc = Array.from({ length: 20 }, () => c.nextU32());
    expect(sa).toEqual(sb);
    expect(sa).not.toEqual(sc);
  });

  it("int stays in range and covers it", () => {
    const r = new Rng("x");
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = r.int(3, 7);
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(7);
      seen.add(v);
    }
    expect(seen.size).toBe(5);
  });

  it("restores from state and forks independently", () => {
    const r = new Rng(7);
    r.next();
    const copy = Rng.fromState(r.state());
    expect(copy.nextU32()).toBe(r.nextU32());
    const f1 = new Rng(1).fork("a");
    const f2 = new Rng(1).fork("b");
    expect(f1.nextU32()).not.toBe(f2.nextU32());
  });
});

describe("errors", () => {
  it("formats file:line: detail", () => {
    const e = new InputError("tasks/x/task.toml", 7, "timeout_sec", "bad");
    expect(e.message).toBe("tasks/x/task.toml:7: bad");
    expect(e).toBeInstanceOf(UserError);
    expect(e.kind).toBe("user");
  });
});
