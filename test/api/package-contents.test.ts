import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const ROOT = resolve(import.meta.dirname, "../..");

/** What `npm pack` would put in the tarball (the suite builds dist/ before it runs). */
function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const parsed = z.array(z.object({ files: z.array(z.object({ path: z.string() })) })).parse(JSON.parse(out));
  return (parsed[0]?.files ?? []).map((f) => f.path);
}

const SPECIFIER = /(?:from\s+|import\s*\(\s*|import\s+)"([^"]+)"/g;

function importsOf(file: string): string[] {
  return [...readFileSync(join(ROOT, file), "utf8").matchAll(SPECIFIER)].map((m) => m[1] ?? "");
}

/** Every packed module a start file reaches through relative imports (static and dynamic). */
function reachable(start: string): Set<string> {
  const seen = new Set<string>();
  const todo = [start];
  while (todo.length > 0) {
    const f = todo.pop() ?? "";
    if (seen.has(f) || !existsSync(join(ROOT, f))) continue;
    seen.add(f);
    for (const s of importsOf(f)) if (s.startsWith(".")) todo.push(normalize(join(dirname(f), s)));
  }
  return seen;
}

describe("the npm package", () => {
  const files = packedFiles();

  it("holds the entry points and none of longhaul's own test files", () => {
    for (const entry of ["dist/index.js", "dist/testing.js", "dist/cli/main.js", "package.json"])
      expect(files).toContain(entry);
    // tasks/*/tests/ are the bundled tasks' verifiers (task content), not tests of longhaul.
    const own = files.filter((f) => /\.test\.[cm]?[jt]s$/.test(f) || f === "scripts/test.sh");
    expect(own).toEqual([]);
  });

  it("imports a dev dependency only from modules that `longhaul/testing` alone reaches", () => {
    const pkg = z
      .object({
        devDependencies: z.record(z.string(), z.string()),
        peerDependenciesMeta: z.record(z.string(), z.object({ optional: z.boolean() })).default({}),
      })
      .parse(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")));
    // An optional peer (tsx, for .ts config files) may be loaded at run time, but only on demand:
    // by a dynamic import whose failure the code handles, never by a static one.
    const optionalPeers = Object.entries(pkg.peerDependenciesMeta)
      .filter(([, m]) => m.optional)
      .map(([name]) => name);
    for (const peer of optionalPeers) {
      for (const f of files.filter((x) => x.startsWith("dist/") && x.endsWith(".js"))) {
        const text = readFileSync(join(ROOT, f), "utf8");
        expect(new RegExp(`from "${peer}[/"]`).test(text), `${f} imports ${peer} statically`).toBe(false);
      }
    }
    const dev = new Set(Object.keys(pkg.devDependencies).filter((d) => !optionalPeers.includes(d)));
    const runtime = new Set(
      ["dist/index.js", "dist/cli/main.js", "dist/viewer.js"].flatMap((e) => [...reachable(e)]),
    );
    const testing = reachable("dist/testing.js");
    const users = files
      .filter((f) => f.startsWith("dist/") && f.endsWith(".js"))
      .filter((f) =>
        importsOf(f).some((s) => {
          const name = s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : (s.split("/")[0] ?? "");
          return dev.has(name);
        }),
      );
    // The conformance suite imports vitest: it must exist (the check is not vacuous) and stay apart.
    expect(users).toContain("dist/sandbox/conformance.js");
    for (const f of users) {
      expect(runtime.has(f), `${f} is reached from a runtime entry point`).toBe(false);
      expect(testing.has(f), `${f} is not behind longhaul/testing`).toBe(true);
    }
    // The walk follows the CLI's on-demand command modules too.
    expect(runtime.has("dist/cli/commands/run.js")).toBe(true);
  });

  it("uses every runtime dependency: imported by a packed module, or read by one as a file", () => {
    const pkg = z
      .object({ dependencies: z.record(z.string(), z.string()) })
      .parse(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")));
    const modules = files.filter((f) => f.startsWith("dist/") && f.endsWith(".js"));
    const imported = new Set(
      modules.flatMap((f) =>
        importsOf(f).map((s) =>
          s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : (s.split("/")[0] ?? ""),
        ),
      ),
    );
    // A package whose files are inlined (the report's chart scripts) is named as a string instead.
    const text = modules.map((f) => readFileSync(join(ROOT, f), "utf8")).join("\n");
    const unused = Object.keys(pkg.dependencies).filter((d) => !imported.has(d) && !text.includes(`"${d}"`));
    expect(imported.has("zod")).toBe(true);
    expect(unused).toEqual([]);
  });
});
