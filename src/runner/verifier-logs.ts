import { chownSync, lstatSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InfraError } from "../core/index.js";
import { removeTree } from "../sandbox/remove-tree.js";
import type { Mount, Sandbox } from "../sandbox/types.js";

/**
 * Where the verifier writes: a fresh host folder outside the sandbox's storage, shown as /logs
 * for the verifier's exec only (with the agent's /logs/agent read-only inside it). An agent that
 * filled its disk quota, or left links, FIFOs or a full /logs behind, therefore cannot stop the
 * verifier from writing its reward — that would turn the agent's failure into a grading error.
 */
export interface VerifierLogs {
  /** Extra mounts for the verifier exec. */
  mounts: Mount[];
  /** Host folder of /logs/verifier, read after every verifier process is dead (null: in-sandbox). */
  hostDir: string | null;
  /** The folder the reward files are read under, and their path prefix there. */
  readRoot: string | null;
  dispose(): void;
}

export async function prepareVerifierLogs(sandbox: Sandbox): Promise<VerifierLogs> {
  const agentLogs = sandbox.hostPathOf?.("/logs/agent") ?? null;
  const logsRoot = sandbox.hostPathOf?.("/logs") ?? null;
  if (agentLogs === null || logsRoot === null) {
    // A provider without host paths: empty the folder inside the sandbox instead.
    const reset = await sandbox.exec(["bash", "-c", "rm -rf /logs/verifier && mkdir -p /logs/verifier"], {
      timeoutSec: 60,
    });
    if (reset.exitCode !== 0) throw new InfraError(`could not reset /logs/verifier: ${reset.stderr.trim()}`);
    return { mounts: [], hostDir: null, readRoot: null, dispose: () => undefined };
  }
  // Named like the runner's other state folders, so a crashed runner's leftovers are swept.
  const root = mkdtempSync(join(tmpdir(), `longhaul-${process.pid}-verifier-`));
  const logs = join(root, "logs");
  const verifier = join(logs, "verifier");
  mkdirSync(verifier, { recursive: true });
  mkdirSync(join(logs, "agent"));
  // A provider that runs the sandbox as its own host uid owns /logs: so must the verifier's.
  const owner = lstatSync(logsRoot);
  if (owner.uid !== 0) for (const d of [logs, verifier]) chownSync(d, owner.uid, owner.gid);
  const mounts: Mount[] = [{ hostPath: logs, sandboxPath: "/logs", readonly: false }];
  if (lstatSync(agentLogs, { throwIfNoEntry: false })?.isDirectory() === true) {
    mounts.push({ hostPath: agentLogs, sandboxPath: "/logs/agent", readonly: true });
  }
  return {
    mounts,
    hostDir: verifier,
    readRoot: logs,
    // Removed by descriptor: what a verifier writes may be deeper than a path can name.
    dispose: () => removeTree(root),
  };
}
