import { join } from "node:path";
import { findPackageRoot } from "../../core/index.js";

/** The pinned package.json + package-lock.json of a built-in agent (shipped in the package). */
export function lockDir(agent: string): string {
  return join(findPackageRoot(), "src", "agents", "installed", "locks", agent);
}
