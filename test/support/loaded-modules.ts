import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CLI, ROOT } from "./cli-process.js";

/** How a CLI run ended and every module it loaded (paths under the repository root, others as URLs). */
export interface LoadedModules {
  code: number;
  stderr: string;
  modules: string[];
}

/**
 * Runs the built CLI with a module resolve hook that writes down every module it loads: what a
 * command costs to start is mostly the modules it loads, and a static import added anywhere on
 * its path shows here.
 */
export async function modulesLoadedBy(args: readonly string[]): Promise<LoadedModules> {
  const dir = mkdtempSync(join(tmpdir(), "longhaul-test-modules-"));
  try {
    const log = join(dir, "modules.txt");
    const hooks = join(dir, "hooks.mjs");
    const register = join(dir, "register.mjs");
    writeFileSync(log, "");
    writeFileSync(
      hooks,
      `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, r.url + "\\n");
  return r;
}
`,
    );
    writeFileSync(
      register,
      `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((done) => {
      execFile(
        process.execPath,
        ["--import", pathToFileURL(register).href, CLI, ...args],
        { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
        (err, _stdout, stderr) => {
          const exit = err === null ? 0 : typeof err.code === "number" ? err.code : -1;
          done({ code: exit, stderr });
        },
      );
    });
    const root = pathToFileURL(ROOT).href;
    const modules = [
      ...new Set(
        readFileSync(log, "utf8")
          .split("\n")
          .filter((u) => u !== "")
          .map((u) => (u.startsWith(`${root}/`) ? u.slice(root.length + 1) : u)),
      ),
    ].sort();
    return { code, stderr, modules };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
