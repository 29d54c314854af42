import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../core/rng.js";
import { fromUtf8, utf8 } from "./bytes.js";
import { buildManifestTree, type ManifestFile, resolveManifest } from "./manifest.js";

describe("nested manifests", () => {
  it("resolving the tree gives back the data, at every depth and fanout", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer(),
        (data, depth, fanout, seed) => {
          const tree = buildManifestTree(new Rng(seed), data, {
            depth,
            fanout,
            wrapRate: 0.5,
            root: "in/m.json",
          });
          expect(resolveManifest(tree.files, tree.root)).toEqual(data);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("puts every data file at exactly the stated depth", () => {
    const tree = buildManifestTree(new Rng(7), utf8("x".repeat(200)), { depth: 3, fanout: 2 });
    const levels: number[] = [];
    const walk = (path: string, level: number): void => {
      const m = JSON.parse(fromUtf8(tree.files[path] as Uint8Array)) as ManifestFile;
      const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
      for (const e of m.entries) {
        if (e.kind === "manifest") walk(dir + e.path, level + 1);
        else levels.push(level);
      }
    };
    walk(tree.root, 1);
    expect(levels.length).toBe(tree.dataFiles);
    expect(new Set(levels)).toEqual(new Set([3]));
  });

  it("reports missing files, cycles and digest mismatches", () => {
    const tree = buildManifestTree(new Rng(1), utf8("hello world, hello manifests"), {
      depth: 2,
      wrapRate: 0,
    });
    const dataPath = Object.keys(tree.files).find((p) => p.endsWith(".bin")) as string;
    const { [dataPath]: _gone, ...missing } = tree.files;
    expect(() => resolveManifest(missing, tree.root)).toThrow(/missing file/);
    const tampered = { ...tree.files, [dataPath]: utf8("tampered") };
    expect(() => resolveManifest(tampered, tree.root)).toThrow(/sha256/);
    const loop = utf8(
      JSON.stringify({ entries: [{ kind: "manifest", path: "a.json", order: 0, encoding: [] }] }),
    );
    expect(() => resolveManifest({ "a.json": loop }, "a.json")).toThrow(/cycle/);
  });
});
