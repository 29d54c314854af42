import { resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The curated entry points: every export carries TSDoc at its declaration, and the main entry
// point reaches neither test helpers nor vitest (they belong to longhaul/testing).

const ROOT = resolve(import.meta.dirname, "..", "..");
const ENTRIES = ["src/index.ts", "src/testing.ts", "src/viewer.ts"].map((p) => resolve(ROOT, p));

const program = ts.createProgram(ENTRIES, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2023,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
});
const checker = program.getTypeChecker();

function exportsOf(entry: string): { name: string; documented: boolean }[] {
  const file = program.getSourceFile(entry);
  const module = file && checker.getSymbolAtLocation(file);
  if (module === undefined) throw new Error(`cannot read ${entry}`);
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const doc = ts.displayPartsToString(target.getDocumentationComment(checker)).trim();
    return { name: symbol.getName(), documented: doc.length > 0 };
  });
}

describe("public API", () => {
  it("documents every export of the main and testing entry points", () => {
    const all = ENTRIES.flatMap(exportsOf);
    expect(all.length).toBeGreaterThan(40);
    expect(all.filter((e) => !e.documented).map((e) => e.name)).toEqual([]);
  });

  it("keeps test helpers and vitest out of the main entry point", () => {
    const main = exportsOf(ENTRIES[0] ?? "").map((e) => e.name);
    for (const name of ["describeSandboxConformance", "makeTrial", "syntheticTrials"]) {
      expect(main).not.toContain(name);
    }
    const reached = program
      .getSourceFiles()
      .map((f) => f.fileName)
      .filter((f) => f.startsWith(resolve(ROOT, "src")));
    // The testing entry pulls in the conformance suite; the main one must not reach it.
    const fromMain = ts.createProgram([ENTRIES[0] ?? ""], program.getCompilerOptions());
    const mainFiles = fromMain.getSourceFiles().map((f) => f.fileName);
    expect(reached.some((f) => f.endsWith("sandbox/conformance.ts"))).toBe(true);
    expect(mainFiles.some((f) => f.endsWith("sandbox/conformance.ts"))).toBe(false);
    expect(mainFiles.some((f) => f.includes("/node_modules/vitest/"))).toBe(false);
  });
});
