import { join } from "node:path";
import { findPackageRoot } from "../core/package-root.js";

let cached: string | null = null;

/** The longhaul package folder, found from this file whether it runs from src/ or dist/. */
export function packageRoot(): string {
  cached ??= findPackageRoot();
  return cached;
}

/** The bundled tasks folder. */
export function bundledTasksDir(): string {
  return join(packageRoot(), "tasks");
}
