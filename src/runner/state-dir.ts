import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where a trial's sandbox keeps its state (overlay upper, persistent folders, disk image): a
 * path that does not exist yet and that no other trial of this process gets, even one with the
 * same trial id started in the same millisecond (a RES verifier runs `child-oracle-1000` for every
 * child, and `scale -n` verifies children side by side). The random part makes it unique; the
 * rest says whose it is when one is left behind.
 */
export function trialStateDir(trialId: string): string {
  const safe = trialId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 80);
  return join(
    tmpdir(),
    `longhaul-${process.pid}-${safe}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`,
  );
}
