import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runJob, runTrial } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { loadTask } from "../../src/task/index.js";
import type { Task } from "../../src/task/types.js";
import { fixtureTask, jobConfig, tempDir } from "./helpers.js";

const bwrap = getSandboxProvider("bwrap");
let store: JobStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** A host task written on the fly: files relative to the task folder. */
async function hostTask(name: string, files: Record<string, string>): Promise<Task> {
  const dir = join(tempDir("harbor-task"), name);
  const all: Record<string, string> = { "instruction.md": "do it\n", ...files };
  for (const [rel, text] of Object.entries(all)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text, { mode: 0o755 });
  }
  return loadTask(dir);
}

async function trial(task: Task, agent: string, agentOptions: Record<string, string> = {}) {
  const trialDir = join(tempDir("trial"), "t");
  const result = await runTrial({
    jobId: "j",
    trialId: `${task.name}-${agent}`,
    trialDir,
    task,
    agent,
    agentOptions,
    model: null,
    attempt: 1,
    seed: 7,
    provider: bwrap,
    timeoutMultiplier: 1,
    signal: new AbortController().signal,
  });
  return { result, trialDir };
}

const ENV_TOML = `[agent]
timeout_sec = 60
[verifier]
timeout_sec = 60
[verifier.env]
ONLY_VERIFIER = "v"
SHARED = "from-verifier"
[solution.env]
ONLY_SOLUTION = "s"
[environment]
allow_internet = false
[environment.env]
SHARED = "from-environment"
TASK_WIDE = "e"
`;
const DUMP = `for v in SHARED TASK_WIDE ONLY_VERIFIER ONLY_SOLUTION; do echo "$v=\${!v-unset}"; done`;

describe("task.toml env tables reach the right commands (bwrap, host task)", () => {
  it("[environment.env] to every agent exec and the verifier, [solution.env] to the oracle, [verifier.env] to the verifier only", async () => {
    const task = await hostTask("envs", {
      "task.toml": ENV_TOML,
      "solution/solve.sh": `#!/bin/bash\n${DUMP} > /app/oracle-env.txt\n`,
      "tests/test.sh": `#!/bin/bash\n${DUMP} > /logs/verifier/env.txt\ncp /app/*-env.txt /logs/verifier/ 2>/dev/null\necho 1 > /logs/verifier/reward.txt\n`,
    });
    const oracle = await trial(task, "oracle");
    expect(oracle.result.outcome).toBe("completed");
    const logs = join(oracle.trialDir, "verifier", "logs");
    expect(readFileSync(join(logs, "oracle-env.txt"), "utf8")).toBe(
      "SHARED=from-environment\nTASK_WIDE=e\nONLY_VERIFIER=unset\nONLY_SOLUTION=s\n",
    );
    expect(readFileSync(join(logs, "env.txt"), "utf8")).toBe(
      "SHARED=from-verifier\nTASK_WIDE=e\nONLY_VERIFIER=v\nONLY_SOLUTION=unset\n",
    );

    // Any other agent: [environment.env] only, in every exec it makes.
    const shell = await trial(task, "shell", { cmd: `${DUMP} > /app/shell-env.txt` });
    expect(readFileSync(join(shell.trialDir, "verifier", "logs", "shell-env.txt"), "utf8")).toBe(
      "SHARED=from-environment\nTASK_WIDE=e\nONLY_VERIFIER=unset\nONLY_SOLUTION=unset\n",
    );
  }, 120_000);
});

describe("verifier health: a 0 from a verifier that could not run its tools is a grading error", () => {
  const toml = "[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 60\n";
  const solve = "#!/bin/bash\ntrue\n";

  it("uvx missing, reward 0 written: grading_error with the evidence line", async () => {
    const task = await hostTask("no-uvx", {
      "task.toml": toml,
      "solution/solve.sh": solve,
      "tests/test.sh":
        "#!/bin/bash\nuvx-surely-missing-here -p 3.13 pytest /tests\nuvx --version\necho 0 > /logs/verifier/reward.txt\n",
    });
    const { result } = await trial(task, "nop");
    expect(result.outcome).toBe("grading_error");
    expect(result.reward).toBeNull();
    expect(result.error?.kind).toBe("grading");
    expect(result.error?.message).toMatch(
      /^verifier could not run its own tools, so its reward 0 is not trusted: /,
    );
    expect(result.error?.message).toContain(
      "/tests/test.sh: line 2: uvx-surely-missing-here: command not found",
    );
  }, 120_000);

  it("exits non-zero before writing any reward: grading_error naming the exit and the evidence", async () => {
    const task = await hostTask("early-exit", {
      "task.toml": toml,
      "solution/solve.sh": solve,
      "tests/test.sh": "#!/bin/bash\necho 'ModuleNotFoundError: No module named pytest' >&2\nexit 3\n",
    });
    const { result } = await trial(task, "nop");
    expect(result.outcome).toBe("grading_error");
    expect(result.error?.message).toBe(
      "verifier exited with 3 before writing a reward: ModuleNotFoundError: No module named pytest",
    );
  }, 120_000);

  it("tests that ran and failed give a normal 0, even when the agent's own program is missing", async () => {
    const task = await hostTask("honest-zero", {
      "task.toml": toml,
      "solution/solve.sh": solve,
      "tests/test.sh":
        "#!/bin/bash\necho \"FAILED test_outputs.py::test_run - ModuleNotFoundError: No module named 'solution'\"\nsh -c 'agent-tool-never-written' 2>&1\necho 0 > /logs/verifier/reward.txt\n",
    });
    const { result } = await trial(task, "nop");
    expect(result.outcome).toBe("completed");
    expect(result.reward).toBe(0);
  }, 120_000);

  it("a pass is a pass even when the output mentions a missing tool", async () => {
    const task = await hostTask("pass-despite", {
      "task.toml": toml,
      "solution/solve.sh": solve,
      "tests/test.sh":
        "#!/bin/bash\necho 'curl: command not found (optional upload skipped)' >&2\necho 1 > /logs/verifier/reward.txt\n",
    });
    const { result } = await trial(task, "nop");
    expect(result.outcome).toBe("completed");
    expect(result.reward).toBe(1);
  }, 120_000);
});

describe("Harbor reward.json metrics", () => {
  it("records every numeric key in verifier/metrics.json and scores R from the documented rule", async () => {
    const task = await hostTask("metrics", {
      "task.toml": "[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 60\n",
      "solution/solve.sh": "#!/bin/bash\ntrue\n",
      "tests/test.sh": `#!/bin/bash\necho '{"accuracy": 0.5, "coverage": 1.0, "label": "x"}' > /logs/verifier/reward.json\n`,
    });
    const { result, trialDir } = await trial(task, "nop");
    expect(result.outcome).toBe("completed");
    expect(result.reward).toBe(0.75);
    expect(JSON.parse(readFileSync(join(trialDir, "verifier", "metrics.json"), "utf8"))).toEqual({
      accuracy: 0.5,
      coverage: 1,
    });
  }, 120_000);
});

describe("datasets are robust", () => {
  it("an image task whose image is not available records that error on each of its trials; the others run", async () => {
    store = await JobStore.open(tempDir("jobs"));
    // word-count, pointed at an image no daemon or archive has.
    const copy = join(tempDir("missing-image"), "word-count");
    cpSync(join(import.meta.dirname, "../fixtures/harbor/word-count"), copy, { recursive: true });
    const toml = join(copy, "task.toml");
    writeFileSync(
      toml,
      readFileSync(toml, "utf8").replace(
        /docker_image = ".*"/,
        'docker_image = "longhaul-no-such-image:never"',
      ),
    );
    const image = await loadTask(copy);
    const hello = await fixtureTask("hello");
    const config = jobConfig([image, hello], { agents: ["oracle", "nop"] });
    const out = await runJob({ store, config, tasks: [image, hello], provider: bwrap, resume: false });
    const mine = out.trials.filter((t) => t.task.name === "word-count");
    expect(mine).toHaveLength(2);
    for (const t of mine) {
      expect(t.outcome).toBe("infra_error");
      expect(t.error?.kind).toBe("image");
      expect(t.error?.message).toContain("task word-count: image not available:");
      expect(t.error?.message).toContain("longhaul-no-such-image:never");
    }
    expect(out.failedImages.map((f) => f.task)).toEqual(["word-count"]);
    expect(out.trials.find((t) => t.task.name === "hello" && t.agent === "oracle")?.reward).toBe(1);
  }, 180_000);

  it("the oracle on a task without solution/solve.sh is that trial's agent error; nop runs", async () => {
    const task = await hostTask("no-solution", {
      "task.toml": "[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 60\n",
      "tests/test.sh": "#!/bin/bash\necho 0 > /logs/verifier/reward.txt\n",
    });
    const oracle = await trial(task, "oracle");
    expect(oracle.result.outcome).toBe("agent_error");
    expect(oracle.result.error?.message).toContain("the oracle agent needs solution/solve.sh");
    const nop = await trial(task, "nop");
    expect(nop.result).toMatchObject({ outcome: "completed", reward: 0 });
  }, 120_000);
});

describe("a verifier's /logs is bounded though it lies outside the disk quota", () => {
  it("a program of the agent that the check runs directly and floods /logs/verifier is killed", async () => {
    // The careless but common pattern: test.sh runs the agent's program itself. Its /logs is a
    // host folder outside storage_mb; the limit is the quota plus what the log copy keeps (116 MB).
    const task = await hostTask("logs-flood", {
      "task.toml":
        "[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 60\n[environment]\nallow_internet = false\nstorage_mb = 16\n",
      "tests/test.sh": "#!/bin/bash\nbash /app/run.sh\necho 0 > /logs/verifier/reward.txt\n",
    });
    const flood =
      "for i in $(seq 20); do head -c 20000000 /dev/zero > /logs/verifier/big$i; echo $((i * 20)) > /logs/verifier/wrote.txt; sleep 0.2; done";
    const { result, trialDir } = await trial(task, "shell", { cmd: `echo '${flood}' > /app/run.sh` });
    expect(result.outcome).toBe("grading_error");
    expect(result.error?.message).toMatch(
      /^verifier was killed: it wrote more than 121634816 bytes under \/logs/,
    );
    // Polled every second: it stopped well short of the 400 MB it meant to write.
    const wrote = Number(readFileSync(join(trialDir, "verifier", "logs", "wrote.txt"), "utf8"));
    expect(wrote).toBeLessThan(300);
  }, 120_000);
});

describe("a foreign task whose test.sh writes its reward outside /logs/verifier", () => {
  it("is a grading error naming where the reward went", async () => {
    const task = await hostTask("stray-reward", {
      "task.toml": "[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 60\n",
      "tests/test.sh":
        "#!/bin/bash\nmkdir -p /logs/out\necho 1 > /logs/reward.txt\necho '{\"reward\": 1}' > /logs/out/reward.json\n",
    });
    const { result } = await trial(task, "nop");
    expect(result.outcome).toBe("grading_error");
    expect(result.error?.message).toBe(
      "the verifier wrote its reward outside /logs/verifier (/logs/out/reward.json, /logs/reward.txt); only /logs/verifier/reward.txt or reward.json is read, as in Harbor",
    );
  }, 120_000);
});
