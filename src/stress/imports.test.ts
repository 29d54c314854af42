import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The compiled module is imported by graders inside the sandbox with plain node and no node_modules.
const here = import.meta.dirname;
const ALLOWED_CORE = new Set(["../core/rng.js", "../core/canonical-json.js"]);
const SPEC_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;

function specifiers(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(SPEC_RE)].map((m) => m[1] as string);
}

describe("stress module dependencies", () => {
  const sources = readdirSync(here).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));

  it("imports only node: builtins, sibling files and the dependency-free core files", () => {
    expect(sources.length).toBeGreaterThan(10);
    const bad: string[] = [];
    for (const f of sources) {
      for (const s of specifiers(join(here, f))) {
        const ok = s.startsWith("node:") || /^\.\/[\w.-]+\.js$/.test(s) || ALLOWED_CORE.has(s);
        if (!ok) bad.push(`${f}: ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("the allowed core files themselves import only node: builtins", () => {
    for (const f of ALLOWED_CORE) {
      for (const s of specifiers(join(here, f.replace(/\.js$/, ".ts")))) expect(s).toMatch(/^node:/);
    }
  });

  it("the scanner sees every import form it must police", () => {
    const probe = join(here, "index.ts");
    expect(specifiers(probe)).toContain("./wrappers.js");
    const text = 'import fc from "fast-check";\nconst z = await import("zod");\nexport * from "pngjs";';
    expect([...text.matchAll(SPEC_RE)].map((m) => m[1])).toEqual(["fast-check", "zod", "pngjs"]);
  });

  it("index re-exports every source file", () => {
    const index = specifiers(join(here, "index.ts"));
    for (const f of sources) if (f !== "index.ts") expect(index).toContain(`./${f.replace(/\.ts$/, ".js")}`);
  });
});
