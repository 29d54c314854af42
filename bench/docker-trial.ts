/**
 * Where a trial's time goes in the docker sandbox: N oracle trials of one bundled task, one at a
 * time, with every docker CLI call logged (LONGHAUL_DOCKER points at a wrapper that times each
 * call and passes it on). Prints the phases of result.json's `timing` and, for the verifier phase
 * (from the end of the agent's log collection to the verdict), the docker calls by kind.
 * verifier_overhead = verifier − verifier_command: what the phase costs beyond test.sh's own exec.
 *
 *   npx tsx bench/docker-trial.ts [trials=3] [task=log-digest]
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runJob } from "../src/runner/index.js";
import { getSandboxProvider } from "../src/sandbox/registry.js";
import { JobStore } from "../src/store/index.js";
import { loadTask } from "../src/task/index.js";

const trials = Number(process.argv[2] ?? 3);
const taskName = process.argv[3] ?? "log-digest";
const task = await loadTask(resolve(import.meta.dirname, "../tasks", taskName));
const dir = mkdtempSync(join(tmpdir(), "longhaul-bench-docker-"));
const traceFile = join(dir, "docker-calls.log");
const realDocker = process.env.LONGHAUL_DOCKER ?? "docker";

// One line per call: start and end (µs since the epoch, bash's clock: no fork), exit code, argv.
const wrapper = join(dir, "docker-traced");
writeFileSync(
  wrapper,
  `#!/bin/bash
s=\${EPOCHREALTIME/./}
${JSON.stringify(realDocker)} "$@"
rc=$?
e=\${EPOCHREALTIME/./}
printf '%s %s %s %q\\n' "$s" "$e" "$rc" "$*" >> ${JSON.stringify(traceFile)}
exit $rc
`,
);
chmodSync(wrapper, 0o755);
process.env.LONGHAUL_DOCKER = wrapper;

interface Call {
  startMs: number;
  endMs: number;
  kind: string;
}

/** Names a call after its subcommand and, for the provider's helper scripts, what the script does. */
function kindOf(quoted: string): string {
  // printf %q: spaces escaped, or the whole line in $'…' when it holds a newline.
  const argv = quoted.replace(/^\$'/, "").replace(/\\ /g, " ");
  const sub = /^(\S+)/.exec(argv)?.[1] ?? "?";
  if (sub !== "exec") return sub === "cp" ? (argv.startsWith("cp -") ? "cp in" : "cp out") : sub;
  const scripts: [RegExp, string][] = [
    [/longhaul-exec/, "exec: the command"],
    [/# longhaul-stage/, "exec: set aside (batched)"],
    [/# longhaul-wipe/, "exec: wipe (batched)"],
    [/# longhaul-take-away/, "exec: take away (batched)"],
    [/# longhaul-empty-trash/, "exec: empty trash"],
    [/kill -9 -1/, "exec: killAll"],
    [/LONGHAUL_EXEC=\$1/, "exec: kill one exec"],
    [/could not remove/, "exec: take away (one mount)"],
    [/\.longhaul\/aside/, "exec: set aside (one mount)"],
    [/chmod -R u\+w/, "exec: wipe (one mount)"],
    [/id -u/, "exec: look up user"],
  ];
  for (const [re, name] of scripts) if (re.test(argv)) return name;
  return "exec: other";
}

function readCalls(): Call[] {
  let text = "";
  try {
    text = readFileSync(traceFile, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const [s, e, _rc, ...rest] = l.split(" ");
      return { startMs: Number(s) / 1000, endMs: Number(e) / 1000, kind: kindOf(rest.join(" ")) };
    });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] ?? Number.NaN) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

const store = await JobStore.open(join(dir, "store"));
const phases = [
  "setup_sec",
  "agent_sec",
  "verifier_sec",
  "verifier_command_sec",
  "verifier_overhead_sec",
  "total_sec",
] as const;
const rows: Record<(typeof phases)[number], number>[] = [];
const perKind = new Map<string, { count: number; ms: number }>();
let verifierCalls = 0;
try {
  // Trials run one by one (concurrency 1), so a docker call belongs to the trial whose window it is in.
  for (let i = 0; i < trials; i++) {
    const out = await runJob({
      store,
      provider: getSandboxProvider("docker"),
      resume: false,
      tasks: [task],
      config: {
        schema_version: 1,
        job_id: `bench-docker-${i}`,
        created_at: new Date().toISOString(),
        tasks: [{ name: task.name, path: task.dir, checksum: task.checksum }],
        agents: ["oracle"],
        models: [null],
        attempts: 1,
        concurrency: 1,
        timeout_multiplier: 1,
        retries: 0,
        seed: 1000 + i,
        sandbox: "docker",
        agent_options: {},
      },
    });
    const t = out.trials[0];
    if (t === undefined || t.reward !== 1)
      throw new Error(`trial ${i} did not score 1: ${JSON.stringify(t)}`);
    // The verifier phase's own cost: all of it but tests/test.sh's docker exec.
    const overhead = t.timing.verifier_sec - t.timing.verifier_command_sec;
    rows.push({ ...t.timing, verifier_overhead_sec: overhead });
    const end = Date.parse(t.timing.finished_at);
    const start = end - t.timing.verifier_sec * 1000;
    for (const c of readCalls()) {
      if (c.startMs < start || c.startMs > end) continue;
      verifierCalls++;
      const k = perKind.get(c.kind) ?? { count: 0, ms: 0 };
      k.count++;
      k.ms += c.endMs - c.startMs;
      perKind.set(c.kind, k);
    }
    rmSync(traceFile, { force: true });
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

console.log(`docker trial phases, oracle on ${task.name}, ${trials} trials one at a time (seconds)`);
console.log(
  `  ${"trial".padEnd(6)}${phases.map((p) => p.replace(/_sec$/, "").replace("verifier_", "v. ").padStart(14)).join("")}`,
);
rows.forEach((r, i) => {
  console.log(`  ${String(i + 1).padEnd(6)}${phases.map((p) => r[p].toFixed(2).padStart(14)).join("")}`);
});
console.log(
  `  ${"median".padEnd(6)}${phases
    .map((p) =>
      median(rows.map((r) => r[p]))
        .toFixed(2)
        .padStart(14),
    )
    .join("")}`,
);
console.log(`docker calls in the verifier phase, per trial (mean): ${(verifierCalls / trials).toFixed(1)}`);
for (const [kind, k] of [...perKind].sort((a, b) => b[1].ms - a[1].ms)) {
  console.log(
    `  ${kind.padEnd(34)} ${(k.count / trials).toFixed(1).padStart(5)} calls ${(k.ms / trials / 1000).toFixed(2).padStart(7)} s`,
  );
}
