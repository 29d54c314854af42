import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { utf8 } from "../../src/scale/file-tree.js";
import { base64 } from "../../src/scale/transforms/resource/base64.js";
import type { FileTree, Transform, TransformOutput } from "../../src/scale/types.js";
import {
  checkTransformCase,
  chooseTargets,
  runRestore,
  sampleEnvironments,
} from "../support/transform-conformance.js";

const good = base64 as Transform<unknown>;
const [shop] = sampleEnvironments() as [FileTree];
const TARGET = "data/orders.csv";

/** base64 with its output bent by `bend`, to show each conformance check can fail. */
function broken(bend: (out: TransformOutput, env: FileTree) => TransformOutput): Transform<unknown> {
  return { ...good, name: "broken", apply: (input) => bend(good.apply(input), input.env) };
}

describe("conformance suite", () => {
  it("passes a correct transform", () => {
    expect(() => checkTransformCase(good, shop, [TARGET], 1)).not.toThrow();
  });

  it("catches a restore that does not bring the target back", () => {
    const t = broken((out) => ({ ...out, restore: [{ run: "true", why: "nothing" }] }));
    expect(() => checkTransformCase(t, shop, [TARGET], 1)).toThrow(/restore did not bring back/);
  });

  it("catches a restore that brings back different content", () => {
    const t = broken((out) => ({
      ...out,
      restore: [...out.restore, { run: `printf 'x\\n' >> ${TARGET}`, why: "corrupt" }],
    }));
    expect(() => checkTransformCase(t, shop, [TARGET], 1)).toThrow(/restored facts differ/);
  });

  it("catches a restore that damages a file that was not a target", () => {
    const t = broken((out) => ({ ...out, restore: [...out.restore, { run: "rm README.md", why: "oops" }] }));
    expect(() => checkTransformCase(t, shop, [TARGET], 1)).toThrow(/non-target README\.md/);
  });

  it("catches non-determinism", () => {
    let n = 0;
    const t = broken((out) => ({ ...out, access: `${out.access} (${n++})` }));
    expect(() => checkTransformCase(t, shop, [TARGET], 1)).toThrow();
  });

  it("catches a mutated input", () => {
    const t = broken((out, env) => {
      (env as Map<string, Uint8Array>).set("README.md", utf8.encode("changed"));
      return out;
    });
    expect(() => checkTransformCase(t, shop, [TARGET], 1)).toThrow(/mutated/);
  });

  it("catches access text that gives a protected line away or names an absolute path", () => {
    const leak = broken((out) => ({ ...out, access: `${out.access} First row: 4,Ola Nordmann,east,0.00,` }));
    expect(() => checkTransformCase(leak, shop, [TARGET], 1)).toThrow(/gives away a line/);
    const abs = broken((out) => ({ ...out, access: `${out.access} It lives in /tmp/work/x.` }));
    expect(() => checkTransformCase(abs, shop, [TARGET], 1)).toThrow(/absolute path/);
  });

  it("catches a transform that changes nothing readable", () => {
    const t = broken((out, env) => {
      const e = new Map(out.env);
      e.set(TARGET, env.get(TARGET) as Uint8Array);
      return { ...out, env: e, removed: [] };
    });
    expect(() => checkTransformCase(t, shop, [TARGET], 1)).toThrow(/still readable/);
  });

  it("catches dishonest produced and removed lists", () => {
    const ghost = broken((out) => ({ ...out, produced: [...out.produced, "nowhere.bin"] }));
    expect(() => checkTransformCase(ghost, shop, [TARGET], 1)).toThrow(/produced nowhere\.bin/);
    const silent = broken((out) => ({ ...out, removed: [] }));
    expect(() => checkTransformCase(silent, shop, [TARGET], 1)).toThrow(/without being listed/);
  });

  it("chooses targets deterministically, spread over the accepted files", () => {
    expect(chooseTargets(good, shop)).toEqual(chooseTargets(good, shop));
    expect(chooseTargets(good, shop).map((s) => s.length)).toEqual([1, 1, 1]);
    const many = { ...good, arity: "many" as const };
    for (const set of chooseTargets(many, shop)) {
      expect(set.length).toBeGreaterThanOrEqual(2);
      expect(new Set(set).size).toBe(set.length);
    }
  });

  it("runRestore reports the failing step with its stderr", () => {
    expect(() =>
      runRestore(tmpdir(), [
        { run: "true", why: "fine" },
        { run: "echo boom >&2; exit 3", why: "fails" },
      ]),
    ).toThrow(/restore step 2 \(fails\) failed: exit 3[\s\S]*boom/);
  });

  it("restore steps see only PATH", () => {
    expect(() =>
      runRestore(tmpdir(), [{ run: 'test -z "$HOME" && test -n "$PATH"', why: "env" }]),
    ).not.toThrow();
  });
});
