import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type Trajectory, trajectorySchema } from "../../src/agents/llm-loop/trajectory.js";
import type { TrialResult } from "../../src/core/index.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { loadTrajectory } from "../../src/server/trial-files.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig, tempDir } from "../runner/helpers.js";

/**
 * Shared by the installed-agent end-to-end tests: the `hello` fixture (sum.txt, plus an
 * executable /app/bin/sum for the hidden check), solved by scripted tool calls, and the check
 * that the host's real key is nowhere inside the sandbox (the gateway adds it on the way out).
 */
export const REAL_KEY = "sk-real-provider-key-7f3a9c1e";
/** The key split in two, so the command that searches for it does not contain it. */
const KEY_HEAD = REAL_KEY.slice(0, 10);
const KEY_TAIL = REAL_KEY.slice(10);
export const SUM_SCRIPT = "#!/bin/bash\nawk '{s+=$1} END {print s}' \"$1\"\n";
export const SUM_COMMAND = "awk '{s+=$1} END {print s}' /app/numbers.txt > /app/sum.txt";
/**
 * Searches the agent's environment, every process's environment and the sandbox's file system
 * for the key; prints KEY-FOUND lines, then KEY-CHECK-END. The host's read-only system folders
 * (/usr, /var, /opt and the /bin, /lib links into /usr: 17 GB here, the same in every sandbox,
 * never written by a trial) are
 * left out to keep the search to seconds, and so are the agent's cached install and Node under
 * /longhaul (half a gigabyte, read-only, installed without running any package script); every
 * place a trial writes or is given (the workdir, /root, /tmp, /logs, /etc, /run, the gateway
 * folder) is searched.
 */
export const KEY_CHECK_COMMAND = [
  `k="${KEY_HEAD}""${KEY_TAIL}"`,
  `{ env; cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n'; } | grep -qF "$k" && echo KEY-FOUND-ENV`,
  `grep -rlsF --binary-files=text -e "$k" $(ls -d /* | grep -vxE '/(proc|sys|dev|usr|var|opt|longhaul|bin|sbin|lib|lib64)') /longhaul/gateway 2>/dev/null | head -3 | sed 's/^/KEY-FOUND-FILE /'`,
  "echo KEY-CHECK-END",
].join("; ");

/**
 * One trial of `agent` on the fixture through the runner, which starts the trial's model
 * gateway in front of `upstream` (the loopback server) and hands the agent its endpoint.
 */
export async function runOne(
  agent: string,
  model: string,
  jobId: string,
  upstream: string,
  sandbox: "bwrap" | "docker" = "bwrap",
): Promise<{ trial: TrialResult; dir: string }> {
  const store = await JobStore.open(tempDir("installed"));
  try {
    const task = await fixtureTask("hello");
    const config = jobConfig([task], {
      job_id: jobId,
      agents: [agent],
      models: [model],
      agent_options: { base_url: upstream },
      // The fixture's 30 s are for a shell script; an agent binary's start on a busy machine is slower.
      timeout_multiplier: 4,
    });
    const out = await runJob({
      store,
      config,
      tasks: [task],
      provider: getSandboxProvider(sandbox),
      resume: false,
    });
    const trial = out.trials[0];
    if (!trial) throw new Error("no trial");
    return { trial, dir: store.trialDir(jobId, trial.trial_id) };
  } finally {
    await store.close();
  }
}

/**
 * The trial's trajectory, checked against the ATIF schema longhaul writes and read the way the
 * viewer reads it (so `longhaul view` shows every step).
 */
export function readTrajectory(dir: string): Trajectory {
  const t = trajectorySchema.parse(JSON.parse(readFileSync(join(dir, "agent", "trajectory.json"), "utf8")));
  const viewed = loadTrajectory(dir);
  if (viewed.state !== "ok" || viewed.value.steps.length !== t.steps.length) {
    throw new Error(`the viewer reads this trajectory as ${JSON.stringify(viewed).slice(0, 300)}`);
  }
  return t;
}

/**
 * The host holds the real provider key in `envName` while this test file runs (as a user's
 * shell would), and gets its own value back afterwards.
 */
export function realKeyOnHost(envName: string): void {
  const saved = process.env[envName];
  beforeAll(() => {
    process.env[envName] = REAL_KEY;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env[envName];
    else process.env[envName] = saved;
  });
}

/** What Claude Code sent back as the result of its tool call `id` (Anthropic messages). */
export function anthropicToolResult(messages: unknown, id: string): string | undefined {
  for (const m of Array.isArray(messages) ? messages : []) {
    for (const b of Array.isArray(m?.content) ? m.content : []) {
      if (b?.type === "tool_result" && b.tool_use_id === id)
        return typeof b.content === "string" ? b.content.trim() : JSON.stringify(b.content);
    }
  }
  return undefined;
}
