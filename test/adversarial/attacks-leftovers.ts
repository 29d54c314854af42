import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { Attack, AttackRun } from "./harness.js";

/** The trial's sandbox state folder (src/runner/state-dir.ts) is gone: nothing the agent locked stopped its removal. */
function stateRemoved(r: AttackRun): void {
  const safe = r.trial.trial_id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 80);
  const left = readdirSync(tmpdir()).filter((n) => n.startsWith(`longhaul-${process.pid}-${safe}-`));
  expect(left, "the trial's sandbox state folder outlived it").toEqual([]);
}

/** A unix socket bound at each path given (its process exits; the socket file stays). */
const SOCKETS = (...paths: string[]): string =>
  `python3 -c 'import socket, sys
for p in sys.argv[1:]:
    socket.socket(socket.AF_UNIX).bind(p)' ${paths.join(" ")}\n`;

/**
 * What the agent leaves behind for the host to copy, walk and remove after its phase: folders it
 * locked, odd names, sockets, hard links and sparse giants, on the plain task whose check reads
 * /app/out.txt (the host's walk of the workdir runs there too).
 */
// The quota fills below stop making files at the first refusal (xargs ends on a command's exit
// 255): the quota is then full, and the rest of the script runs, instead of failing touches
// filling the agent's budget until its deadline cut the script short.
export const LEFTOVER_ATTACKS: Attack[] = [
  {
    // Not a way to a reward but out of the rates: a copy or clean-up that threw would be an
    // infrastructure error. The host works as root, so a mode stops none of it.
    // Under the rlimit fallback the folders are the sandbox's own host uid's.
    name: "locks its folders (chmod 000, a-w) in the workdir, /tmp, its home and /logs/agent",
    tasks: ["adv-plain-compare"],
    script: `for d in /app/locked /tmp/locked /root/locked /logs/agent/locked; do
  mkdir -p $d/inner && echo kept > $d/inner/file.txt && echo kept > $d/file.txt
  ln -s /tests/expected.txt $d/inner/answer
  chmod 000 $d/inner; chmod 555 $d; done
ln -s locked/inner/answer /app/out.txt
chmod 000 /logs/agent/locked; chmod 500 /tmp /root 2>/dev/null; true`,
    check: (r) => {
      stateRemoved(r);
      // Saved as it was: the agent's own mode is no reason to lose its logs.
      expect(r.agentLog("locked/inner/file.txt")?.trim()).toBe("kept");
    },
  },
  {
    name: "odd names: newlines, invalid UTF-8, leading dashes and 255-byte names, a link to /tests behind them",
    anyLimits: true,
    tasks: ["adv-plain-compare"],
    script: `long=$(printf 'n%.0s' $(seq 255))
for d in /app /logs/agent; do
  touch "$d/$(printf 'a\\nb')" "$d/$(printf '\\xff\\xfe')" "$d/--help" "$d/-rf" "$d/$long" "$d/$(printf 'x\\r\\033[2J')"
  mkdir -p "$d/$(printf 'dir\\nwith\\nnewlines')"; echo kept > "$d/$(printf 'dir\\nwith\\nnewlines')/f"
done
ln -s /tests/expected.txt "/app/$(printf 'dir\\nwith\\nnewlines')/$(printf 'ans\\nwer')"
ln -s "$(printf 'dir\\nwith\\nnewlines')/$(printf 'ans\\nwer')" "/app/$(printf 'l\\n/app/out.txt')"
ln -s "$(printf 'l\\n/app/out.txt')" /app/out.txt`,
    check: (r) => {
      stateRemoved(r);
      expect(r.agentLog("dir\nwith\nnewlines/f")?.trim()).toBe("kept");
    },
  },
  {
    name: "sockets where the check and the log copy expect files (/app/out.txt, /logs/agent), hard links across its folders",
    anyLimits: true,
    tasks: ["adv-plain-compare"],
    script: `${SOCKETS("/app/out.txt", "/logs/agent/sock", "/logs/agent/result.json", "/tmp/sock")}echo x > /app/x
{ ln /app/x /logs/agent/hard; ln /app/x /tmp/hard; ln /app/x /root/hard; ln /usr/bin/python3 /app/py; ln /etc/passwd /app/pw; } > /logs/agent/links.txt 2>&1
ln /app/x /app/x2; true`,
    check: (r) => {
      stateRemoved(r);
      // Tried and refused: each folder is a mount of its own, so no hard link crosses them.
      expect(r.agentLog("links.txt")).toMatch(/Invalid cross-device link/);
    },
  },
  {
    // Before, the verifier's fresh /tmp and /root were copied from the image onto the agent's
    // quota: their mkdir threw ENOSPC out of the trial and ended the whole job.
    name: "over an image, fills its disk quota (bytes, then inodes) before the verifier's exec",
    tasks: ["adv-vault-image"],
    script: `for d in /app /tmp /root /logs/agent /; do dd if=/dev/zero of=$d/fill bs=1M count=200 2>/dev/null; done
mkdir -p /app/many && cd /app/many && seq 200000 | xargs sh -c 'touch "$@" || exit 255' sh 2>/dev/null
for d in /tmp /root /; do dd if=/dev/zero of=$d/fill2 bs=1k count=100 2>/dev/null; done
df -i /app > /logs/agent/df.txt 2>&1; true`,
    check: stateRemoved,
  },
  {
    // Before, bwrap had no room left to make /tests in the agent's root, on which a plain task's
    // verifier runs: it could not start, an infrastructure error that rates leave out.
    name: "plain task over an image: fills its disk quota (bytes, then inodes) before the verifier's exec",
    tasks: ["adv-plain-image"],
    script: `echo guess > /app/out.txt
for d in /app /tmp /root /; do dd if=/dev/zero of=$d/fill bs=1M count=200 2>/dev/null; done
mkdir -p /app/many && cd /app/many && seq 200000 | xargs sh -c 'touch "$@" || exit 255' sh 2>/dev/null
for d in /tmp /root /; do dd if=/dev/zero of=$d/fill2 bs=1k count=100 2>/dev/null; done; true`,
    check: stateRemoved,
  },
  {
    // The quota counts blocks, the log copy sizes (st_size): neither reads a hole.
    name: "sparse files of 15 GB in the workdir, /tmp, its home and /logs/agent",
    tasks: ["adv-plain-compare"],
    script: `for f in /app/out.txt /tmp/huge /root/huge /logs/agent/huge /logs/agent/reward.json; do truncate -s 15G $f 2>>/logs/agent/sparse.txt; done
ls -ls /app /logs/agent >> /logs/agent/sparse.txt; true`,
    check: (r) => {
      stateRemoved(r);
      const report = JSON.parse(readFileSync(join(r.trialDir, "agent", "copy-report.json"), "utf8")) as {
        skipped: { path: string; size?: number }[];
      };
      // Where it could be made (rlimits cap a file's size at the quota), it was left out of the
      // copy by its size alone.
      const huge = report.skipped.find((e) => e.path === "huge");
      if (huge !== undefined) expect(huge.size).toBe(15 * 2 ** 30);
      expect(r.agentLog("huge") ?? "", "only an empty huge (never extended) may be copied").toBe("");
    },
  },
];
