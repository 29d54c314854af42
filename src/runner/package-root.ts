import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { InternalError } from "../core/index.js";

let cached: string | null = null;

/** The longhaul package folder, found from this file whether it runs from src/ or dist/. */
export function packageRoot(): string {
  if (cached !== null) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) {
      const parsed: unknown = JSON.parse(readFileSync(pkg, "utf8"));
      if (typeof parsed === "object" && parsed !== null && "name" in parsed && parsed.name === "longhaul") {
        cached = dir;
        return dir;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new InternalError("cannot find the longhaul package root");
    dir = parent;
  }
}

/** The bundled tasks folder. */
export function bundledTasksDir(): string {
  return join(packageRoot(), "tasks");
}
