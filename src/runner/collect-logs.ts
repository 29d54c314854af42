import { writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, InfraError } from "../core/index.js";
import { REWARD_DETAILS_JSON, REWARD_JSON, REWARD_TXT } from "../grading/reward.js";
import {
  type CopyLimits,
  type CopyReport,
  copyTreeBounded,
  LOG_COPY_LIMITS,
} from "../sandbox/bounded-copy.js";
import { REWARD_FILE_MAX_BYTES, readFileUnder } from "../sandbox/safe-read.js";
import type { Sandbox } from "../sandbox/types.js";

export const COPY_REPORT = "copy-report.json";

/**
 * Copies a sandbox folder (/logs/agent, /logs/verifier) into `dest` within `limits` and writes
 * `copy-report.json` into `reportDir`. On a provider that keeps the folder on the host (bwrap) the
 * bounded copy reads it there directly; otherwise the provider's download lands in a staging
 * folder first and the same limits apply to what is kept.
 */
export async function collectLogs(
  sandbox: Sandbox,
  sandboxPath: string,
  dest: string,
  reportDir: string,
  limits: CopyLimits = LOG_COPY_LIMITS,
  /** The folder's host path when the caller knows it better than the sandbox's binds do. */
  hostDir: string | null = null,
): Promise<CopyReport> {
  let report: CopyReport;
  try {
    const host = hostDir ?? sandbox.hostPathOf?.(sandboxPath) ?? null;
    if (host !== null) {
      report = await copyTreeBounded(host, dest, limits);
    } else {
      const staging = `${dest}.staging`;
      try {
        await sandbox.download(sandboxPath, staging).catch(() => undefined);
        report = await copyTreeBounded(staging, dest, limits);
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    }
  } catch (e) {
    throw new InfraError(`could not save ${sandboxPath}: ${errorMessage(e)}`, { cause: e });
  }
  writeFileSync(
    join(reportDir, COPY_REPORT),
    `${JSON.stringify({ source: sandboxPath, ...report }, null, 2)}\n`,
  );
  return report;
}

export interface VerifierFiles {
  rewardJson: string | null;
  rewardTxt: string | null;
  detailsJson: string | null;
  /** Reward files that exist but were refused (symlink, FIFO, too big…), one message each. */
  refused: string[];
  /** A refused reward.json or reward.txt: no reward can be trusted. */
  rewardRefused: boolean;
}

/**
 * Reads the verifier's reward files without following links and within REWARD_FILE_MAX_BYTES:
 * from the host path of /logs/verifier when the provider has one (never from a copy the sandbox
 * could have shaped), else from the bounded copy in `copiedDir`.
 */
export function readVerifierFiles(
  sandbox: Sandbox,
  copiedDir: string,
  /** Host folder shown as /logs to the verifier, when it had its own (see verifier-logs.ts). */
  verifierLogsRoot: string | null = null,
): VerifierFiles {
  const logsRoot = verifierLogsRoot ?? sandbox.hostPathOf?.("/logs") ?? null;
  const [root, prefix] = logsRoot !== null ? [logsRoot, "verifier/"] : [copiedDir, ""];
  const refused: string[] = [];
  const read = (name: string): string | null => {
    const r = readFileUnder(root, `${prefix}${name}`, REWARD_FILE_MAX_BYTES);
    if (r.kind === "ok") return r.text;
    if (r.kind === "rejected") {
      refused.push(`not read: ${r.reason.replace(`${prefix}${name}`, `/logs/verifier/${name}`)}`);
    }
    return null;
  };
  const rewardJson = read(REWARD_JSON);
  const rewardTxt = read(REWARD_TXT);
  const rewardRefused = refused.length > 0;
  const detailsJson = read(REWARD_DETAILS_JSON);
  return { rewardJson, rewardTxt, detailsJson, refused, rewardRefused };
}
