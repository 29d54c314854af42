import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { Attack } from "./harness.js";

/**
 * 25 levels of 200-byte names under /app/deep (5,000 bytes, past the 4,096 the host can name),
 * made by relative names. Every fourth level a link `h<i>` leads four levels down to the next
 * (a link's target must fit in one block of the 1 KiB-block disk a 64 MB quota gets), the last to
 * `answer` at the bottom, and /app/out.txt leads to the first: the kernel resolves the whole chain
 * in the sandbox, so a walk that skipped what it could not name would let the check read the
 * answer. The chain is tried on a probe file first.
 */
const DEEP_CHAIN = `d=$(printf 'd%.0s' $(seq 200))
mkdir -p /app/deep && cd /app/deep
for i in $(seq 25); do
  mkdir $d && cd $d
  if [ $i = 24 ]; then ln -s $d/answer h24
  elif [ $((i % 4)) = 0 ]; then ln -s $d/$d/$d/$d/h$((i + 4)) h$i; fi
done
echo reached > /app/probe.txt
ln -s /app/probe.txt answer
ln -s deep/$d/$d/$d/$d/h4 /app/out.txt
cat /app/out.txt > /logs/agent/resolved.txt 2>&1
ln -sfn /tests/expected.txt answer`;

/**
 * The verifier's bash on a plain task over an image is the agent's (its root is the agent's, as in
 * Harbor): this one leaves trees deeper than the host can name in the verifier's fresh /tmp and
 * /root and its own /logs/verifier, says it ran (bash-replaced.txt), then writes reward 0.
 */
const DEEP_BASH = `#!/bin/sh
d=$(printf 'd%.0s' $(seq 200))
for t in /tmp /root /logs/verifier; do (cd $t && for i in $(seq 25); do mkdir $d && cd $d; done; echo x > leaf); done
mkdir -p /logs/verifier; echo ran > /logs/verifier/bash-replaced.txt; echo 0 > /logs/verifier/reward.txt; exit 0`;

/**
 * Workdirs shaped against the host's walk for links into /tests (src/runner/workdir-links.ts), on
 * the plain task whose check compares /app/out.txt with the answer. Before, the first two threw
 * out of the trial (ENOTDIR, ENAMETOOLONG) and ended the whole job: every other trial was lost.
 */
export const WALK_ATTACKS: Attack[] = [
  {
    name: "a workdir link resolved through a regular file (out.txt/x)",
    anyLimits: true,
    tasks: ["adv-plain-compare"],
    script: "echo guess > /app/out.txt; ln -s out.txt/x /app/through-file",
  },
  {
    name: "a workdir tree deeper than the host can name, its output linked to the answer at the bottom",
    anyLimits: true,
    tasks: ["adv-plain-compare"],
    script: DEEP_CHAIN,
    check: (r) => {
      // The chain works in the sandbox: only its removal keeps the check from the answer.
      expect(r.agentLog("resolved.txt")?.trim()).toBe("reached");
    },
  },
  {
    // Before, the host's removal of those folders threw ENAMETOOLONG and ended the whole job.
    name: "plain task over an image: the verifier's bash, replaced, leaves trees deeper than the host can name",
    anyLimits: true,
    tasks: ["adv-plain-image"],
    script: `echo guess > /app/out.txt
cat > /tmp/fake-bash <<'LHEOF'
${DEEP_BASH}
LHEOF
chmod +x /tmp/fake-bash; b="$(readlink -f "$(command -v bash)")"
# Renamed over it: writing into a bash that runs (this script's own) fails with ETXTBSY.
cp /tmp/fake-bash "$b.new" && mv -f "$b.new" "$b"`,
    check: (r) => {
      // Before, cp wrote into the running bash and failed (Text file busy): the verifier ran the
      // image's bash and no deep tree was made, under either provider.
      const said = join(r.trialDir, "verifier", "logs", "bash-replaced.txt");
      expect(existsSync(said) ? readFileSync(said, "utf8") : null).toBe("ran\n");
    },
  },
];
