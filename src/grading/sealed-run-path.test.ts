import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InternalError } from "../core/errors.js";
import { findPackageRoot } from "../core/package-root.js";
import { SEALED_RUN_FILE, sealedRunDir } from "./sealed-run-path.js";

function fakePackage(): string {
  const root = mkdtempSync(join(tmpdir(), "lh-pkg-"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "longhaul" }));
  // A nested package of another name (a dependency) must not stop the walk.
  mkdirSync(join(root, "dist", "grading", "inner"), { recursive: true });
  writeFileSync(join(root, "dist", "grading", "package.json"), JSON.stringify({ name: "other" }));
  writeFileSync(join(root, "dist", "package.json"), "{ broken");
  mkdirSync(join(root, "src", "grading", "kit"), { recursive: true });
  writeFileSync(join(root, "src", "grading", "kit", SEALED_RUN_FILE), "#!/bin/sh\n");
  return root;
}

describe("sealedRunDir", () => {
  it("finds the real sealed runner from this source tree", () => {
    const dir = sealedRunDir();
    expect(existsSync(join(dir, SEALED_RUN_FILE))).toBe(true);
    expect(existsSync(join(findPackageRoot(), "package.json"))).toBe(true);
  });

  it("walks up from dist/ past other packages to the longhaul root", () => {
    const root = fakePackage();
    expect(findPackageRoot(join(root, "dist", "grading", "inner"))).toBe(root);
    expect(sealedRunDir(findPackageRoot(join(root, "dist", "grading")))).toBe(
      join(root, "src", "grading", "kit"),
    );
  });

  it("prefers a copy under dist/ when a build placed one there", () => {
    const root = fakePackage();
    mkdirSync(join(root, "dist", "grading", "kit"), { recursive: true });
    writeFileSync(join(root, "dist", "grading", "kit", SEALED_RUN_FILE), "#!/bin/sh\n");
    expect(sealedRunDir(root)).toBe(join(root, "dist", "grading", "kit"));
  });

  it("fails loudly outside a longhaul package", () => {
    const lone = mkdtempSync(join(tmpdir(), "lh-nopkg-"));
    expect(() => findPackageRoot(lone)).toThrow(InternalError);
    expect(() => sealedRunDir(lone)).toThrow(/sealed runner not found/);
  });
});
