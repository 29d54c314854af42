import { chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InfraError } from "../core/index.js";
import { LOG_COPY_LIMITS } from "../sandbox/bounded-copy.js";
import { removeTree } from "../sandbox/remove-tree.js";
import { diskUsage } from "../sandbox/storage.js";
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

/** Polls of the verifier's /logs while it runs. */
const LOGS_CHECK_MS = 1000;

export interface LogsWatch {
  stop(): void;
  /** The limit that was passed, in bytes, or null while it holds. */
  passed(): number | null;
}

/**
 * The verifier's /logs lies outside the sandbox's disk quota (above), and a verifier may run the
 * agent's code: a program a plain task's test.sh calls directly, or, over an image, the agent's
 * own bash. Before, such code wrote without limit to the host's disk there (360 MB against a
 * 64 MB quota, measured). Its usage is polled while it runs, and `onOver` (kill the verifier) is
 * called once it passes `maxBytes`; its reward is then not trusted.
 */
export function watchVerifierLogs(
  logs: VerifierLogs,
  maxBytes: number,
  onOver: () => void,
  everyMs = LOGS_CHECK_MS,
): LogsWatch {
  let passed: number | null = null;
  const root = logs.readRoot;
  const timer =
    root === null
      ? undefined
      : setInterval(() => {
          if (passed !== null || diskUsage(root, maxBytes) <= maxBytes) return;
          passed = maxBytes;
          onOver();
        }, everyMs);
  timer?.unref();
  return { stop: () => clearInterval(timer), passed: () => passed };
}

/** The room a verifier gets in /logs: the agent's disk quota, plus what the log copy keeps. */
export function verifierLogsMaxBytes(storageMb: number): number {
  return storageMb * 1024 * 1024 + LOG_COPY_LIMITS.maxTotalBytes;
}

const REWARD_NAMES = new Set(["reward.txt", "reward.json"]);

/**
 * Reward files the verifier left elsewhere under /logs than /logs/verifier (a test.sh writing
 * `/logs/reward.txt`), as sandbox paths, at most three: a trial whose verifier wrote no reward
 * names them, so the task's author sees where the file went rather than only that none came.
 */
export function strayRewardFiles(logs: VerifierLogs): string[] {
  const root = logs.readRoot;
  if (root === null) return [];
  const found: string[] = [];
  const walk = (rel: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(join(root, rel)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (found.length >= 3) return;
      const r = rel === "" ? name : `${rel}/${name}`;
      const st = lstatSync(join(root, r), { throwIfNoEntry: false });
      if (st?.isDirectory() === true && depth < 3 && r !== "agent") walk(r, depth + 1);
      else if (st?.isFile() === true && REWARD_NAMES.has(name) && rel !== "verifier")
        found.push(`/logs/${r}`);
    }
  };
  walk("", 0);
  return found;
}

/** The trial's first grading errors for a verifier past its /logs limit or with stray rewards. */
export function verifierLogsErrors(passedBytes: number | null, stray: readonly string[]): string[] {
  const errors: string[] = [];
  if (passedBytes !== null)
    errors.push(`verifier was killed: it wrote more than ${passedBytes} bytes under /logs`);
  if (stray.length > 0) {
    errors.push(
      `the verifier wrote its reward outside /logs/verifier (${stray.join(", ")}); only /logs/verifier/reward.txt or reward.json is read, as in Harbor`,
    );
  }
  return errors;
}
