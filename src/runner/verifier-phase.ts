import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExecResult, Sandbox } from "../sandbox/types.js";
import { collectLogs, readVerifierFiles, type VerifierFiles } from "./collect-logs.js";
import type { TrialParams } from "./run-trial.js";
import { TrialInterrupted } from "./trial-interrupted.js";
import {
  prepareVerifierLogs,
  strayRewardFiles,
  verifierLogsMaxBytes,
  watchVerifierLogs,
} from "./verifier-logs.js";
import { runDeadline, verifierExecOptions, verifierUser } from "./verifier-mounts.js";

/** What the verifier did, read on the host; scoring and the verdict come after. */
export interface VerifierPhase {
  verify: ExecResult;
  files: VerifierFiles;
  /** Bytes the verifier's /logs held when it passed its cap (and was killed); null: within it. */
  logsOver: number | null;
  /** Reward files written outside /logs/verifier, when none was written inside. */
  stray: string[];
  verifierSec: number;
  verifierTimeoutSec: number;
}

type VerifierParams = Pick<
  TrialParams,
  "task" | "seed" | "timeoutMultiplier" | "stopAtFirstFailure" | "stopBelow" | "image" | "signal" | "trialId"
>;

/**
 * The verifier's run, after every agent process is gone: a fresh /logs/verifier, /tests mounted
 * only now and the seed given only here. Its logs are copied out and its reward files read on
 * the host, never trusted in place.
 */
export async function runVerifierPhase(
  p: VerifierParams,
  sandbox: Sandbox,
  verifierDir: string,
): Promise<VerifierPhase> {
  const tVerify = performance.now();
  const vlogs = await prepareVerifierLogs(sandbox);
  const verifierTimeoutSec = p.task.config.verifier.timeout_sec * p.timeoutMultiplier;
  let ran: Omit<VerifierPhase, "verifierSec" | "verifierTimeoutSec">;
  try {
    const options = verifierExecOptions(p.task, p.seed, sandbox.nestingAllowed !== false);
    options.env = {
      ...options.env,
      LONGHAUL_RUN_DEADLINE: String(runDeadline(verifierTimeoutSec, Date.now())),
    };
    if (p.stopAtFirstFailure === true) options.env = { ...options.env, LONGHAUL_STOP_AT_FIRST_FAILURE: "1" };
    if (p.stopBelow !== undefined) options.env = { ...options.env, LONGHAUL_STOP_BELOW: String(p.stopBelow) };
    const user = verifierUser(p.task, p.image?.config.user);
    const storageMb = p.task.config.environment.storage_mb;
    const logsWatch = watchVerifierLogs(vlogs, verifierLogsMaxBytes(storageMb), () => {
      sandbox.killAll().catch(() => undefined);
    });
    let verify: ExecResult;
    try {
      verify = await sandbox.exec(["bash", "/tests/test.sh"], {
        timeoutSec: verifierTimeoutSec,
        ...options,
        ...(user === undefined ? {} : { user }),
        mounts: [...(options.mounts ?? []), ...vlogs.mounts],
        signal: p.signal,
      });
    } finally {
      logsWatch.stop();
    }
    const logsOver = logsWatch.passed();
    await sandbox.killAll();
    if (p.signal.aborted) throw new TrialInterrupted(p.trialId);
    writeFileSync(join(verifierDir, "test-stdout.txt"), verify.stdout);
    writeFileSync(join(verifierDir, "test-stderr.txt"), verify.stderr);
    const verifierCopy = join(verifierDir, "logs");
    await collectLogs(sandbox, "/logs/verifier", verifierCopy, verifierDir, undefined, vlogs.hostDir);
    const files = readVerifierFiles(sandbox, verifierCopy, vlogs.readRoot);
    const stray = files.rewardJson === null && files.rewardTxt === null ? strayRewardFiles(vlogs) : [];
    // Harbor's trial layout keeps the reward files directly in verifier/ (its tools read them
    // there); these are the copies the host read safely, not the sandbox's files.
    if (files.rewardTxt !== null) writeFileSync(join(verifierDir, "reward.txt"), files.rewardTxt);
    if (files.rewardJson !== null) writeFileSync(join(verifierDir, "reward.json"), files.rewardJson);
    ran = { verify, files, logsOver, stray };
  } finally {
    vlogs.dispose();
  }
  return { ...ran, verifierSec: (performance.now() - tVerify) / 1000, verifierTimeoutSec };
}
