import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig, tempDir } from "./helpers.js";

/**
 * A sandbox (agent or verifier) shaping /logs to hurt the host: links to host files and devices,
 * FIFOs, huge sparse files, floods of small files, and a verifier writing where the agent's logs
 * are saved from. Every case must end in an honest result, quickly, with the runner's memory intact.
 */
const bwrap = getSandboxProvider("bwrap");
const CANARY = `host-canary-${process.pid}-${Date.now()}`;
process.env.LONGHAUL_TEST_CANARY = CANARY;
// Sandbox state and job folders on tmpfs where there is one: creating and deleting many small files
// on a busy disk takes minutes, and the point here is the runner's own cost.
if (existsSync("/dev/shm")) process.env.TMPDIR = "/dev/shm";
/** Files the flooding agent makes; LONGHAUL_FLOOD_FILES=200000 for the full measurement. */
const FLOOD_FILES = Number(process.env.LONGHAUL_FLOOD_FILES ?? 30_000);

let store: JobStore | undefined;
let storeDir: string | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  if (storeDir !== undefined) rmSync(storeDir, { recursive: true, force: true });
  // The runner never held a huge file in memory: its peak resident size stayed modest.
  expect(process.resourceUsage().maxRSS * 1024).toBeLessThan(1024 ** 3);
});

interface Ran {
  trial: TrialResult;
  dir: string;
}

/** One trial of the hostile-verifier fixture with the shell agent running `cmd`. */
async function run(cmd: string, timeoutMultiplier = 1): Promise<Ran> {
  storeDir = tempDir("hostile");
  store = await JobStore.open(storeDir);
  const task = await fixtureTask("hostile-verifier");
  const config = jobConfig([task], {
    agents: ["shell"],
    agent_options: { cmd },
    timeout_multiplier: timeoutMultiplier,
  });
  const out = await runJob({ store, config, tasks: [task], provider: bwrap, resume: false });
  const trial = out.trials[0];
  if (trial === undefined) throw new Error("no trial");
  return { trial, dir: store.trialDir(config.job_id, trial.trial_id) };
}

const withMode = (mode: string): string => `echo ${mode} > /app/mode`;

/** Every file under a folder, as relative paths. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

/** Regular files under a folder whose content contains `text`. */
function filesContaining(dir: string, text: string): string[] {
  return filesUnder(dir).filter((f) => {
    const path = join(dir, f);
    return lstatSync(path).isFile() && readFileSync(path, "utf8").includes(text);
  });
}

function diskKb(dir: string): number {
  return Number(execFileSync("du", ["-sk", dir], { encoding: "utf8" }).split("\t")[0]);
}

function copyReport(
  path: string,
): { copied_files: number; skipped: { path: string; type: string }[] } & Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8"));
}

describe("reward files the verifier leaves", () => {
  it.each([
    ["environ", /reward\.json is a symbolic link, not a regular file/],
    ["zero", /reward\.json is a symbolic link, not a regular file/],
    ["hostname", /reward\.json is a symbolic link, not a regular file/],
    ["sparse", /reward\.json is 2621440000 bytes, over the 1048576-byte limit/],
    ["fifo", /reward\.json is a FIFO, not a regular file/],
    ["linked-dir", /verifier is a symbolic link, not a folder/],
  ])("%s: grading_error with a clear message, nothing of the host read", async (mode, message) => {
    const { trial, dir } = await run(withMode(mode));
    expect(trial.outcome).toBe("grading_error");
    expect(trial.reward).toBeNull();
    expect(trial.error?.message).toMatch(message);
    expect(filesContaining(dir, CANARY)).toEqual([]);
  });

  it("a verifier that exits 1 after writing reward 1.0 is a grading_error saying so", async () => {
    const { trial } = await run(withMode("exit1"));
    expect(trial.outcome).toBe("grading_error");
    expect(trial.reward).toBeNull();
    expect(trial.error?.message).toMatch(/^verifier exited with 1; the reward it wrote is not trusted/);
  });

  it("a FIFO next to the reward neither blocks the copy nor spoils the reward", async () => {
    const { trial, dir } = await run(withMode("fifo-logs"));
    expect(trial.outcome).toBe("completed");
    expect(trial.reward).toBe(1);
    expect(filesUnder(join(dir, "verifier", "logs"))).toEqual(["reward.txt"]);
    const report = copyReport(join(dir, "verifier", "copy-report.json"));
    expect(report.skipped).toEqual([expect.objectContaining({ path: "pipe", type: "FIFO" })]);
  });
});

describe("what is saved from /logs/agent", () => {
  it("keeps regular files only: FIFOs, a 2 GB sparse file and links to host files are listed, not copied", async () => {
    const cmd = [
      "cd /logs/agent && mkfifo pipe && mkdir -p sub && mkfifo sub/pipe2",
      "truncate -s 2G sparse.bin && ln -s /etc/passwd passwd && ln -s / rootlink",
      "echo hello > note.txt",
    ].join(" && ");
    const { trial, dir } = await run(cmd);
    expect(trial.outcome).toBe("completed");
    expect(trial.reward).toBe(1);
    expect(filesUnder(join(dir, "agent", "logs"))).toEqual(["note.txt", "sub"]);
    expect(readFileSync(join(dir, "agent", "logs", "note.txt"), "utf8")).toBe("hello\n");
    const report = copyReport(join(dir, "agent", "copy-report.json"));
    expect(report.skipped.map((s) => s.path).sort()).toEqual([
      "passwd",
      "pipe",
      "rootlink",
      "sparse.bin",
      "sub/pipe2",
    ]);
    expect(diskKb(dir)).toBeLessThan(1024);
  });

  it("nothing the verifier writes into /logs/agent (tests, seed) reaches the jobs folder", async () => {
    const { trial, dir } = await run(`${withMode("steal")} && echo mine > /logs/agent/mine.txt`);
    expect(trial.outcome).toBe("completed");
    expect(filesUnder(join(dir, "agent", "logs"))).toEqual(["mine.txt"]);
    expect(existsSync(join(dir, "agent", "logs", "stolen"))).toBe(false);
    // No copy of tests/test.sh anywhere, and not the seed the verifier wrote there either.
    expect(filesContaining(dir, "linked-dir")).toEqual([]);
    expect(filesUnder(dir).filter((f) => f.includes("seed"))).toEqual([]);
  });

  it("a log whose name is not UTF-8 (byte 0xff) is saved under its own bytes", async () => {
    const { trial, dir } = await run(`printf 'kept\\n' > "/logs/agent/log$(printf '\\377').txt"`);
    expect(trial.outcome).toBe("completed");
    const logs = join(dir, "agent", "logs");
    const name = Buffer.concat([Buffer.from("log"), Buffer.from([0xff]), Buffer.from(".txt")]);
    expect(readdirSync(logs, { encoding: "buffer" }).map((b) => b.toString("hex"))).toEqual([
      name.toString("hex"),
    ]);
    expect(readFileSync(Buffer.concat([Buffer.from(`${logs}/`), name]), "utf8")).toBe("kept\n");
    expect(copyReport(join(dir, "agent", "copy-report.json"))).toMatchObject({
      copied_files: 1,
      skipped: [],
    });
  });

  it("an /logs/agent replaced by a link to / saves nothing", async () => {
    const { trial, dir } = await run("rm -rf /logs/agent && ln -s / /logs/agent");
    expect(trial.outcome).toBe("completed");
    expect(existsSync(join(dir, "agent", "logs"))).toBe(false);
    expect(copyReport(join(dir, "agent", "copy-report.json"))).toMatchObject({ source_found: false });
  });

  it(`${FLOOD_FILES} small files: the copy stops at the entry limit, in less time than making them took`, async () => {
    const cmd = `mkdir -p /logs/agent/many && cd /logs/agent/many && head -c ${FLOOD_FILES} /dev/zero | split -b 1 -a 6 - f`;
    const { trial, dir } = await run(cmd, 10);
    expect(trial.outcome).toBe("completed");
    expect(trial.usage.command_sec).toBeGreaterThan(0);
    const report = copyReport(join(dir, "agent", "copy-report.json"));
    expect(report.copied_files + Number(report.copied_folders)).toBe(10_000);
    expect(report.stopped).toMatch(/entry limit of 10000/);
    expect(filesUnder(join(dir, "agent", "logs", "many"))).toHaveLength(9_999);
    const agentSec = trial.usage.command_sec;
    const copySec = Number(report.duration_sec);
    console.log(`${FLOOD_FILES} files: the agent made them in ${agentSec}s, the host copy took ${copySec}s`);
    // The copy is bounded by the entry limit, not by what the agent made.
    expect(copySec).toBeLessThan(Math.max(agentSec, 10));
  }, 180_000);
});
