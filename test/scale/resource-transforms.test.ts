import { describe, expect, it } from "vitest";
import { groundFacts } from "../../src/scale/facts.js";
import { getTransform } from "../../src/scale/transforms/registry.js";
import { RESOURCE_TRANSFORMS } from "../../src/scale/transforms/resource/index.js";
import type { FileTree } from "../../src/scale/types.js";
import {
  describeTransformConformance,
  restoreInTemp,
  sampleEnvironments,
} from "../support/transform-conformance.js";

// Random round trips per transform are in resource-roundtrip.test.ts (a separate file so the two run in parallel).
for (const t of RESOURCE_TRANSFORMS) describeTransformConformance(t, sampleEnvironments);

describe("composition", () => {
  it("gzip, then move-rename of the .gz, then base64 of the moved file: reverse restores bring the table back", () => {
    const [env] = sampleEnvironments() as [FileTree];
    const target = "data/orders.csv";
    const gz = getTransform("gzip");
    const mv = getTransform("move-rename");
    const b64 = getTransform("base64");
    const s1 = gz.apply({ env, targets: [target], params: gz.defaultParams(3), seed: 3 });
    const packed = s1.produced[0] as string;
    expect(packed).toBe(`${target}.gz`);
    const s2 = mv.apply({ env: s1.env, targets: [packed], params: mv.defaultParams(4), seed: 4 });
    const moved = s2.produced[0] as string;
    expect(s2.removed).toEqual([packed]);
    const s3 = b64.apply({ env: s2.env, targets: [moved], params: b64.defaultParams(5), seed: 5 });
    expect(s3.env.has(target) || s3.env.has(packed) || s3.env.has(moved)).toBe(false);

    const restored = restoreInTemp(s3.env, [...s3.restore, ...s2.restore, ...s1.restore]);
    expect(groundFacts(restored, [target])).toEqual(groundFacts(env, [target]));
    expect([...restored.keys()].sort()).toEqual([...env.keys()].sort());
    // Applied in the wrong order, the first step finds nothing to undo.
    expect(() => restoreInTemp(s3.env, [...s1.restore, ...s2.restore, ...s3.restore])).toThrow(
      /restore step 1/,
    );
  });
});
