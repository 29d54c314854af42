import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTrial } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { fixtureTask, tempDir } from "./helpers.js";

// Writes a perfect reward file; planted where an interpreter would run it at start-up.
const CHEAT = `import json, os
d = os.environ.get("LONGHAUL_VERIFIER_DIR", "/logs/verifier")
try:
    os.makedirs(d, exist_ok=True)
    json.dump({"hidden_sums": 1.0, "reward": 1.0}, open(os.path.join(d, "reward.json"), "w"))
except OSError:
    pass
`;

// A total.py that cheats: answers from the grader's files next to its input (or the squatted
// copy in /app/leak), then tries to overwrite the reward from a process that outlives it.
const CHEATING_TOOL = `import os, sys, time
case, out = sys.argv[1], sys.argv[2]
i = case[-1]
ans = "0\\n"
for p in (os.path.join(os.path.dirname(case), "want" + i), "/app/leak/want" + i):
    try:
        ans = open(p).read()
        break
    except OSError:
        pass
open(out, "w").write(ans)
exec(open("/root/cheat.py").read())
if os.fork() == 0:
    os.setsid()
    for _ in range(100):
        exec(open("/root/cheat.py").read())
        time.sleep(0.05)
    os._exit(0)
`;

const ATTACK = `set -e
cat > /root/cheat.py <<'PY'
${CHEAT}PY
site=$(python3 -c 'import site; print(site.getusersitepackages())')
mkdir -p "$site"
echo 'import os; exec(open("/root/cheat.py").read())' > "$site/zz-cheat.pth"
cp /root/cheat.py "$site/usercustomize.py"
cp /root/cheat.py /app/sitecustomize.py
for f in .bashrc .profile .bash_profile .bash_login; do echo 'python3 /root/cheat.py' >> "/root/$f"; done
mkdir -p /app/leak && rm -rf /tmp/grade-cases && ln -s /app/leak /tmp/grade-cases
cat > /app/total.py <<'PY'
${CHEATING_TOOL}PY
`;

async function trial(cmd: string, seed = 7): Promise<number | null> {
  const task = await fixtureTask("sealed");
  const dir = tempDir("sealed-trial");
  const r = await runTrial({
    jobId: "job-sealed",
    trialId: `t-${seed}`,
    trialDir: join(dir, "trial"),
    task,
    agent: "shell",
    agentOptions: { cmd },
    model: null,
    attempt: 1,
    seed,
    provider: getSandboxProvider("bwrap"),
    timeoutMultiplier: 1,
    signal: new AbortController().signal,
  });
  expect(r.grading_errors).toEqual([]);
  return r.reward;
}

describe("verifier start state and sealed runs", () => {
  it("an honest run scores by its work, and planted start-up files and a cheating program change nothing", async () => {
    const solved =
      "bash /dev/stdin <<'S'\n" +
      (await import("node:fs")).readFileSync(
        join(import.meta.dirname, "../fixtures/tasks/sealed/solution/solve.sh"),
        "utf8",
      ) +
      "S\n";
    expect(await trial(solved)).toBe(1);
    // The shipped total.py writes 0: an honest agent that did nothing gets nothing.
    expect(await trial("true")).toBe(0);
    expect(await trial(ATTACK)).toBe(0);
  });
});
