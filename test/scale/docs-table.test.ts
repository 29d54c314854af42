import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listTransforms } from "../../src/scale/transforms/registry.js";

describe("docs/scale.md", () => {
  it("documents every registered transform with its kind and restore procedure", () => {
    const all = readFileSync("docs/scale.md", "utf8");
    // The "Transforms" section only (the program-task section has its own table of channel steps).
    const start = all.indexOf("\n## Transforms\n");
    const end = all.indexOf("\n## ", start + 1);
    expect(start).toBeGreaterThan(0);
    const doc = all.slice(start, end < 0 ? undefined : end);
    const rows = new Map(
      doc
        .split("\n")
        .filter((l) => /^\| `[a-z0-9-]+`/.test(l))
        .map((l) => [/^\| `([a-z0-9-]+)`/.exec(l)?.[1] ?? "", l]),
    );
    const transforms = listTransforms();
    expect(transforms.length).toBeGreaterThanOrEqual(24);
    for (const t of transforms) {
      const row = rows.get(t.name);
      expect(row, t.name).toBeDefined();
      expect(row).toContain(`| ${t.kind} |`);
      expect(row).toContain(t.restoreDoc.replace(/\|/g, "\\|").slice(0, 40));
      expect(row?.includes("(basic)"), t.name).toBe(t.basic);
    }
  });
});
