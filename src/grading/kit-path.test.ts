import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InternalError } from "../core/errors.js";
import { findPackageRoot } from "../core/package-root.js";
import { GRADER_KIT_FILE, graderKitDir } from "./kit-path.js";

function fakePackage(): string {
  const root = mkdtempSync(join(tmpdir(), "lh-pkg-"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "longhaul" }));
  // A nested package of another name (a dependency) must not stop the walk.
  mkdirSync(join(root, "dist", "grading", "inner"), { recursive: true });
  writeFileSync(join(root, "dist", "grading", "package.json"), JSON.stringify({ name: "other" }));
  writeFileSync(join(root, "dist", "package.json"), "{ broken");
  mkdirSync(join(root, "src", "grading", "kit"), { recursive: true });
  writeFileSync(join(root, "src", "grading", "kit", GRADER_KIT_FILE), "export {};\n");
  return root;
}

describe("graderKitDir", () => {
  it("finds the real kit from this source tree", () => {
    const dir = graderKitDir();
    expect(existsSync(join(dir, GRADER_KIT_FILE))).toBe(true);
    expect(existsSync(join(findPackageRoot(), "package.json"))).toBe(true);
  });

  it("walks up from dist/ past other packages to the longhaul root", () => {
    const root = fakePackage();
    expect(findPackageRoot(join(root, "dist", "grading", "inner"))).toBe(root);
    expect(graderKitDir(findPackageRoot(join(root, "dist", "grading")))).toBe(
      join(root, "src", "grading", "kit"),
    );
  });

  it("prefers a copy under dist/ when a build placed one there", () => {
    const root = fakePackage();
    mkdirSync(join(root, "dist", "grading", "kit"), { recursive: true });
    writeFileSync(join(root, "dist", "grading", "kit", GRADER_KIT_FILE), "export {};\n");
    expect(graderKitDir(root)).toBe(join(root, "dist", "grading", "kit"));
  });

  it("fails loudly outside a longhaul package", () => {
    const lone = mkdtempSync(join(tmpdir(), "lh-nopkg-"));
    expect(() => findPackageRoot(lone)).toThrow(InternalError);
    expect(() => graderKitDir(lone)).toThrow(/grader kit not found/);
  });
});
