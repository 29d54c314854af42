import { expect } from "vitest";
import { program, put } from "./attack-kit.js";
import type { Attack } from "./harness.js";

const MEMORY_MB = 256; // adv-vault/task.toml
const STORAGE_MB = 64;
const PIDS_MAX = 4096; // what runTrial asks every sandbox for

function num(text: string | null): number {
  return text === null ? 0 : Number(text.trim() || "0");
}

/** Attacks that try to exhaust the host: processes, memory, disk, output and files. */
export const RESOURCE_ATTACKS: Attack[] = [
  {
    name: "fork bomb: 4,300 tasks (threads are clone()s and count as processes; stops itself)",
    tasks: ["adv-vault-roomy"],
    // Threads, because forking 4,300 processes takes longer than the agent budget on a busy host;
    // pids.max and RLIMIT_NPROC count every task alike.
    script: `python3 - @P@ <<'LHEOF'
import threading
threading.stack_size(32 * 1024)
stop, n, how = threading.Event(), 0, "reached the cap"
try:
    while n < ${PIDS_MAX + 200}:
        threading.Thread(target=stop.wait, daemon=True).start()
        n += 1
except Exception as e:
    how = "refused: %s" % e
open("/logs/agent/forks.txt", "w").write("done %d %s" % (n, how))
stop.set()
LHEOF`,
    check: (r) => {
      const log = r.agentLog("forks.txt") ?? "";
      // A bomb cut short by the deadline proves nothing either way: it must have run its course.
      expect(log, "the fork bomb ran to its end within the agent budget").toMatch(/^done /);
      expect(Number(log.split(" ")[1])).toBeLessThanOrEqual(PIDS_MAX);
    },
  },
  {
    name: "memory bomb: four processes of 112 MB each (448 MB against memory_mb = 256), held at the same time",
    tasks: ["adv-vault-roomy"],
    script: `for i in 1 2 3 4; do python3 - $i @P@ <<'LHEOF' &
import os, sys, time
chunks = [bytearray(b"\\x01") * (16 << 20) for _ in range(7)]  # written, so resident
open("/tmp/ready-%s" % sys.argv[1], "w").write(str(os.getpid()))
def alive(j):
    try:
        os.kill(int(open("/tmp/ready-%d" % j).read()), 0)
        return True
    except Exception:
        return False
end = time.time() + 1.5
while time.time() < end:
    if all(alive(j) for j in range(1, 5)):
        open("/logs/agent/together-%s.txt" % sys.argv[1], "w").write(str(16 * len(chunks)))
        break
    time.sleep(0.05)
time.sleep(0.2)
LHEOF
done; wait; touch /logs/agent/mem-done`,
    check: (r) => {
      expect(r.agentLog("mem-done"), "the bomb ran to its end within the agent budget").not.toBeNull();
      // Written only by a process that saw all four alive with their 112 MB each.
      const together = [1, 2, 3, 4].filter((i) => r.agentLog(`together-${i}.txt`) !== null).length;
      expect(together > 0 ? 4 * 112 : 0, "MB resident at once in the sandbox").toBeLessThanOrEqual(
        MEMORY_MB + 32,
      );
    },
  },
  {
    name: "disk bomb of 200 MB against storage_mb = 64",
    script: `dd if=/dev/zero of=/app/big bs=1M count=200 2>/dev/null; stat -c %s /app/big > /logs/agent/disk.txt`,
    check: (r) => expect(num(r.agentLog("disk.txt"))).toBeLessThanOrEqual((STORAGE_MB + 8) * 1024 * 1024),
  },
  {
    // Files in memory are no process's resident memory: before, under the rlimit fallback, its
    // program held 1000 MB in its /tmp (a tmpfs of half the host's memory) against 256.
    name: "memory bomb in files: its program writes 1 GB into its own /tmp while the grader runs it",
    script: program(`n = 0
chunk = b"\\x01" * (8 << 20)
t = time.time()
try:
    for i in range(125):
        if time.time() - t > 3:
            break
        with open("/tmp/f%d" % i, "wb") as f:
            f.write(chunk)
        n += 8
except Exception as e:
    pass
print("held %d MB" % n)`),
    check: (r) => {
      // Under cgroups the grader itself may be the one killed: then nothing was printed.
      const said = r.trial.subtasks.map((s) => s.message ?? "").join(" ");
      const held = Number(/held (\d+) MB/.exec(said)?.[1] ?? 0);
      expect(held, "MB its program held in files of memory").toBeLessThanOrEqual(MEMORY_MB + 32);
    },
  },
  {
    // Its output is staged in the verifier's own /tmp, a tmpfs: before, under the rlimit
    // fallback, an output folder of 1000 MB was held there against 256. The exit status says how
    // much was written (in 16 MB), as adv-vault-out's grader quotes only that.
    name: "memory bomb in files: its program writes a 1 GB output folder, staged in the verifier's /tmp",
    tasks: ["adv-vault-out"],
    script: `${put(
      "/app/answer",
      `#!/usr/bin/env python3
import os, sys, time
os.mkdir(sys.argv[1])
n = 0
chunk = b"\\x01" * (8 << 20)
t = time.time()
try:
    for i in range(125):
        if time.time() - t > 3:
            break
        with open(os.path.join(sys.argv[1], "f%d" % i), "wb") as f:
            f.write(chunk)
        n += 8
except Exception:
    pass
sys.exit(n // 16)`,
    )}`,
    check: (r) => {
      const said = r.trial.subtasks.map((s) => s.message ?? "").join(" ");
      const held = 16 * Number(/exit (\d+)/.exec(said)?.[1] ?? 0);
      expect(held, "MB its output held in the verifier's /tmp").toBeLessThanOrEqual(MEMORY_MB + 32);
    },
  },
  {
    name: "output flood: 1 GB each to stdout and stderr in the agent phase",
    // Output capture and the file walk are the host's, whatever enforces the limits.
    anyLimits: true,
    script: `head -c 1000000000 /dev/zero | tr '\\0' A & head -c 1000000000 /dev/zero | tr '\\0' B >&2; wait`,
    // It ends at the deadline. A stream runs at about 50 MB/s here, so 3 s still pour several
    // times the trial folder's 32 MB bound through the capture (the task's 8 s were all flood).
    agentTimeoutSec: 3,
  },
  {
    name: "output flood: its program prints 300 MB while the grader captures it",
    // Output capture and the file walk are the host's, whatever enforces the limits.
    anyLimits: true,
    script: program(`
chunk = "X" * (1 << 20)
for _ in range(300):
    sys.stdout.write(chunk)`),
  },
  {
    name: "200,000 files in /logs/agent",
    // Files are made until the first refusal (xargs ends on exit 255), not failed until the deadline.
    // Output capture and the file walk are the host's, whatever enforces the limits.
    anyLimits: true,
    script: `mkdir -p /logs/agent/many && cd /logs/agent/many && seq -f f%g 200000 | xargs sh -c 'touch "$@" || exit 255' sh; ls | wc -l > /logs/agent/count.txt`,
  },
];

/** Attacks that try to reach out of the sandbox over the network. */
export const EGRESS_ATTACKS: Attack[] = [
  {
    name: "network egress: DNS lookups",
    script: `{ getent hosts example.com && echo RESOLVED; python3 -c 'import socket; print(socket.getaddrinfo("example.com", 80)); print("RESOLVED")'; } > /logs/agent/dns.txt 2>&1; true`,
    check: (r) => expect(r.agentLog("dns.txt") ?? "").not.toContain("RESOLVED"),
  },
  {
    name: "network egress: TCP to a service the host runs on 127.0.0.1",
    script: `{ echo hi > /dev/tcp/127.0.0.1/@PORT@ && echo CONNECTED; python3 -c 'import socket; socket.create_connection(("127.0.0.1", @PORT@), 2); print("CONNECTED")'; } > /logs/agent/tcp.txt 2>&1
${program(`
import socket
try:
    socket.create_connection(("127.0.0.1", @PORT@), 2)
    print("CONNECTED")
except Exception as e:
    print(e)`)}`,
  },
  {
    name: "network egress: connect to a host abstract unix socket",
    script: `python3 -c '
import socket
s = socket.socket(socket.AF_UNIX)
s.connect("\\0@ABSTRACT@")
print("CONNECTED")' > /logs/agent/unix.txt 2>&1
${program(`
import socket
try:
    s = socket.socket(socket.AF_UNIX); s.connect("\\0@ABSTRACT@"); print("CONNECTED")
except Exception as e:
    print(e)`)}`,
  },
];

/** Terminal escapes, HTML and invalid UTF-8 in output, file names and the grader's message. */
export const ESCAPE_ATTACK: Attack = {
  name: "terminal escapes, HTML and invalid UTF-8 in output, file names and the grader's message",
  script: `printf '\\xff\\xfe bad \\033[2J\\033]0;pwned\\007 <script>alert(1)</script>\\n'; printf '\\033[31m\\xff' >&2
touch "/logs/agent/$(printf '\\033[31mred\\033[0m')" "/logs/agent/<img src=x onerror=alert(1)>" "/logs/agent/$(printf 'bad\\xff\\xfename')"
${program(`print("\\x1b[2J\\x1b]0;pwned\\x07<script>alert(1)</script><img src=x onerror=alert(2)>\\u202e")`)}`,
};
