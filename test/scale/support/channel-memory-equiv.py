"""The channel kit's two ways of running steps give the same trees: in memory (the default) and
on disk (the reference, and the way for an input above MEM_LIMIT). Seeded random inputs (nested
folders, empty folders, modes, names that collide with the steps' own: `a` beside `a.b64`,
`bundle.tar`, `MANIFEST.json`, `store/`, `x.part000`) and random step chains; present, then
restore of what was presented. Prints one JSON object.

    python3 channel-memory-equiv.py KIT_DIR WORK_DIR CASES SEED
"""
import hashlib
import json
import os
import random
import shutil
import sys

sys.path.insert(0, sys.argv[1])
import res_channel as c  # noqa: E402

WORK, CASES, SEED = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
NAMES = ["a", "a.b64", "a.gz", "a.wrapped", "a.utf16", "b.csv", "bundle.tar", "MANIFEST.json",
         "store", "x", "x.part000", "x.part001", "notes.txt", "img.bin", "d", "e"]
FOLDER_ONLY = ["split", "manifest", "archive"]
FILE_MODES = [0o600, 0o640, 0o644, 0o755]
DIR_MODES = [0o700, 0o750, 0o755]


def content(rng):
    kind = rng.randrange(5)
    if kind == 0:
        return b""
    if kind == 1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 600)))
    if kind == 2:
        return "".join("%d,é%s\n" % (i, "x" * rng.randrange(30)) for i in range(rng.randrange(1, 80))).encode()
    if kind == 3:
        return ("line %d\n" % rng.randrange(1000)).encode() * rng.randrange(1, 300)
    return ("ünïcode ☃ %d" % rng.randrange(10 ** 6)).encode()


def make_tree(rng, root, depth=0):
    os.makedirs(root, exist_ok=True)
    for name in rng.sample(NAMES, rng.randrange(1, 6)):
        p = os.path.join(root, name)
        if depth < 3 and rng.random() < 0.3:
            make_tree(rng, p, depth + 1)  # may stay empty below
            os.chmod(p, rng.choice(DIR_MODES))
        elif rng.random() < 0.9 or depth == 0:
            with open(p, "wb") as f:
                f.write(content(rng))
            os.chmod(p, rng.choice(FILE_MODES))
            os.utime(p, (1_600_000_000 + rng.randrange(10 ** 6),) * 2)


def step(rng, name):
    params = {}
    if name == "layered-wrap":
        params["layers"] = rng.sample(["gzip", "base64", "hex"], rng.choice([2, 3]))
    if name == "split":
        params["part_bytes"] = rng.choice([200, 4096])
    if name == "line-rotate":
        params["shift"] = rng.randrange(1, 64)
    return {"name": name, "seed": rng.randrange(2 ** 32), "params": params}


def snapshot(root, src=None):
    """Every entry: kind, mode, a digest of a file's bytes, and whether a file kept the times of
    the input file of the same path (a file no step rewrote)."""
    if os.path.isfile(root):
        root = os.path.dirname(root)
    out = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        rel = os.path.relpath(d, root)
        out.append([rel, "dir", oct(os.stat(d).st_mode)])
        for n in sorted(names):
            p = os.path.join(d, n)
            st = os.lstat(p)
            kept = None
            if src is not None:
                q = os.path.join(src, rel, n)
                kept = os.path.isfile(q) and os.stat(q).st_mtime_ns == st.st_mtime_ns
            out.append([os.path.join(rel, n), "file", oct(st.st_mode),
                        hashlib.sha256(open(p, "rb").read()).hexdigest(), kept])
    return out


def attempt(fn):
    try:
        return "ok", fn()
    except Exception as e:  # the same error class is what must match
        return type(e).__name__, None


used = {"mem": 0, "disk": 0}
_materialize, _disk_init = c._Mem.materialize, c._Disk.__init__


def _count_mem(self, dst):
    used["mem"] += 1
    return _materialize(self, dst)


def _count_disk(self, root):
    used["disk"] += 1
    return _disk_init(self, root)


c._Mem.materialize, c._Disk.__init__ = _count_mem, _count_disk


default_limit = c.MEM_LIMIT


def run(fn, limit):
    c.MEM_LIMIT = limit
    try:
        return fn()
    finally:
        c.MEM_LIMIT = default_limit


rng = random.Random(SEED)
mismatches, errors, compared, singles = [], 0, 0, 0
for i in range(CASES):
    case = os.path.join(WORK, "case%d" % i)
    src = os.path.join(case, "in")
    single = rng.random() < 0.25
    if single:
        os.makedirs(case)
        src = os.path.join(case, rng.choice(NAMES))
        with open(src, "wb") as f:
            f.write(content(rng))
        names = list(c.ONE_FILE)
        singles += 1
    else:
        make_tree(rng, src)
        names = list(c.ONE_FILE) + FOLDER_ONLY * 2
    steps = [step(rng, rng.choice(names)) for _ in range(rng.randrange(1, 7))]
    if single and rng.random() < 0.1:
        steps.append(step(rng, "manifest"))  # refused for a single file, both ways
    disk = attempt(lambda: run(lambda: c.present(src, steps, os.path.join(case, "disk")), -1))
    mem = attempt(lambda: run(lambda: c.present(src, steps, os.path.join(case, "mem")), default_limit))
    keep = None if single else src
    if disk[0] != mem[0]:
        mismatches.append({"case": i, "present": [disk[0], mem[0]], "steps": steps})
        continue
    if disk[0] != "ok":
        errors += 1
        continue
    compared += 1
    a, b = snapshot(disk[1], keep), snapshot(mem[1], keep)
    if a != b or os.path.basename(disk[1]) != os.path.basename(mem[1]):
        mismatches.append({"case": i, "present": "trees differ", "steps": steps,
                           "diff": [x for x in a if x not in b][:3] + [x for x in b if x not in a][:3]})
        continue
    back_disk = attempt(lambda: run(lambda: c.restore(mem[1], steps, os.path.join(case, "bdisk")), -1))
    back_mem = attempt(lambda: run(lambda: c.restore(mem[1], steps, os.path.join(case, "bmem")), default_limit))
    if back_disk[0] != back_mem[0] or (
        back_disk[0] == "ok" and snapshot(back_disk[1]) != snapshot(back_mem[1])
    ):
        mismatches.append({"case": i, "restore": [back_disk[0], back_mem[0]], "steps": steps})
    shutil.rmtree(case)

# An input above MEM_LIMIT goes the disk way, one at or under it the memory way.
big = os.path.join(WORK, "big")
os.makedirs(big)
with open(os.path.join(big, "a.csv"), "wb") as f:
    f.write(b"x,y\n" * 500)
routes = []
for limit in (1999, 2000):
    before = dict(used)
    run(lambda: c.present(big, [step(rng, "gzip")], os.path.join(WORK, "route%d" % limit)), limit)
    routes.append("disk" if used["disk"] > before["disk"] else "mem" if used["mem"] > before["mem"] else "none")

print(json.dumps({"cases": CASES, "routes": routes, "compared": compared, "errors": errors, "singles": singles,
                  "used": used, "mismatches": mismatches[:5], "mismatch_count": len(mismatches)}))
