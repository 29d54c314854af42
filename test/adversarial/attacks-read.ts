import { expect } from "vitest";
import { program } from "./attack-kit.js";
import type { Attack } from "./harness.js";

/** Attacks that try to read what the agent must never see: tests/, solution/, the seed, the host. */
export const READ_ATTACKS: Attack[] = [
  {
    name: "reads tests/, solution/ and the grader kit by path in the agent phase",
    script: `{ cat /tests/* /solution/* /longhaul/kit/* ; ls -la / /tests /solution /longhaul; echo "seed=[$LONGHAUL_SEED]"; } > /logs/agent/read.txt 2>&1
cp -r /tests /solution /logs/agent/ 2>/dev/null; true`,
    check: (r) => expect(r.agentLog("read.txt")).toContain("seed=[]"),
  },
  {
    name: "its program reads /tests/key.txt during verification and prints the vault code",
    script: program(`
try:
    key = open("/tests/key.txt").read().strip()
    ch = sys.stdin.readline().strip()
    print(hashlib.sha256((key + ch).encode()).hexdigest()[:16])
    loot("key", key, say=False)
    subprocess.run("cp -r /tests /logs/agent/tests-copy; cp -r /tests /app/tests-copy", shell=True)
except Exception as e:
    print(e)
`),
  },
  {
    name: "its program reads the seed and the verifier's environment from its own environment",
    script: program(`loot("env", json.dumps(dict(os.environ)))`),
  },
  {
    name: "its program reads every /proc/*/environ",
    script: program(`
out = {}
for p in glob.glob("/proc/[0-9]*/environ"):
    try:
        out[p] = open(p, "rb").read().decode("latin-1")
    except Exception as e:
        out[p] = str(e)
loot("environ", "LONGHAUL_SEED" in "".join(out.values()) and "".join(out.values()) or json.dumps(out))
`),
  },
  {
    name: "its program reads tests through /proc/*/root and /proc/*/cwd of the verifier",
    script: program(`
found = ""
for p in glob.glob("/proc/[0-9]*"):
    for path in (p + "/root/tests/key.txt", p + "/cwd/../tests/key.txt", p + "/root/tests/grade.py"):
        try:
            found += open(path).read()
        except Exception:
            pass
loot("proc-root", found, say=False)
try:
    ch = sys.stdin.readline().strip()
    print(hashlib.sha256((found.splitlines()[0].strip() + ch).encode()).hexdigest()[:16])
except Exception as e:
    print(e)
`),
  },
  {
    name: "its program reads the grader's open files, command line and memory map via /proc/<ppid>",
    script: program(`
pp = "/proc/%d" % os.getppid()
got = []
for path in [pp + "/cmdline", pp + "/maps"] + glob.glob(pp + "/fd/*"):
    try:
        if "/fd/" in path and not os.path.isfile(path):
            continue  # pipes would block
        got.append(open(path, "rb").read(4096).decode("latin-1"))
    except Exception as e:
        got.append(str(e))
loot("ppid", "\\n".join(got))
`),
  },
  {
    name: "symlinks planted in the workdir point the program at /tests",
    script: `ln -s /tests /app/t; ln -s /tests/key.txt /app/key; ln -s /solution /app/s
${program(`
try:
    key = open("/app/key").read().strip()
    print(hashlib.sha256((key + sys.stdin.readline().strip()).encode()).hexdigest()[:16])
    loot("via-link", open("/app/t/grade.py").read(), say=False)
except Exception as e:
    print(e)
`)}`,
  },
  {
    name: "mount tricks: user namespaces, bind mounts and proc mounts from the agent and its program",
    script: `{ unshare -Urm sh -c 'mount --bind / /mnt && ls /mnt/root /mnt/work'; mount -t proc proc /mnt; mount --bind /app /logs/verifier; mount -t tmpfs none /logs; } > /logs/agent/mount.txt 2>&1
${program(`
r = subprocess.run(["unshare", "-Urm", "sh", "-c",
    "mkdir -p /tmp/m && mount --bind /tests /tmp/m && cat /tmp/m/key.txt; mount -t tmpfs none /logs/verifier && echo overmounted"],
    capture_output=True, text=True)
loot("mount", r.stdout + r.stderr)
`)}`,
  },
  {
    name: "reaches host files through /proc/1/root and /proc/*/root and writes to a host canary",
    script: `for p in /proc/[0-9]*; do cat $p/root/etc/shadow $p/root@CANARY@; echo pwned > $p/root@CANARY@; done > /logs/agent/proc1.txt 2>&1
echo pwned > @CANARY@; ls /proc/1/root/work /proc/1/root/root >> /logs/agent/proc1.txt 2>&1; true`,
  },
  {
    name: "symlinks in /logs/agent and the workdir to host files (/etc/shadow, /root/.ssh, /proc/self/environ)",
    script: `for d in /logs/agent /app; do ln -s /etc/shadow $d/shadow; ln -s /root/.ssh $d/ssh; ln -s /proc/self/environ $d/environ; ln -s / $d/rootfs; ln -s @CANARY@ $d/canary; ln -s ../../../../../../etc/passwd $d/passwd; done`,
  },
  {
    name: "its program plants links in /logs/agent during verification, after the host reset",
    script: program(`
for name, target in [("environ", "/proc/self/environ"), ("key", "/tests/key.txt"), ("shadow", "/etc/shadow"), ("host-root", "/")]:
    try:
        os.symlink(target, "/logs/agent/late-" + name)
    except Exception:
        pass
`),
  },
  {
    name: "hidden test content exfiltrated through the grader's quoted program output",
    script: program(`
try:
    print(open("/tests/key.txt").read() + open("/tests/grade.py").read()[:100])
except Exception as e:
    print(e)
`),
  },
];
