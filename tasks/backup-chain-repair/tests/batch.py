"""Runs inside the sealed sandbox: the steps of one plan (the program under test, one call each),
then lists the trees the plan names. Prints one JSON object. Grader code, not the agent's."""
import hashlib
import json
import os
import stat
import subprocess
import sys
import time


def listing(root):
    rows = []
    if not os.path.isdir(root):
        return None
    for base, dirs, files in os.walk(root):
        for name in sorted(dirs + files):
            full = os.path.join(base, name)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                rows.append([rel, "symlink", 0, 0, 0, "", os.readlink(full)])
            elif stat.S_ISDIR(st.st_mode):
                rows.append([rel, "dir", st.st_mode & 0o777, 0, 0, "", ""])
            else:
                try:
                    with open(full, "rb") as f:
                        digest = hashlib.sha256(f.read()).hexdigest()
                except OSError:
                    digest = "unreadable"
                rows.append([rel, "file", st.st_mode & 0o777, int(st.st_mtime), st.st_size, digest, ""])
    return sorted(rows)


def main():
    with open(sys.argv[1]) as f:
        plan = json.load(f)
    for d in plan.get("mkdirs", []):
        os.makedirs(d, exist_ok=True)
    result = {"steps": [], "trees": {}}
    deadline = time.time() + plan.get("budget", 20)
    for step in plan["steps"]:
        left = min(plan.get("timeout", 8), deadline - time.time())
        if left <= 0:
            result["steps"].append([-9, "", "skipped: the batch's time budget is spent"])
            continue
        try:
            p = subprocess.run(step, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=left)
            result["steps"].append([p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")[-300:]])
        except subprocess.TimeoutExpired:
            result["steps"].append([-9, "", "timeout"])
    for name, root in plan.get("list", {}).items():
        result["trees"][name] = listing(root)
    for name, root in plan.get("copy", {}).items():
        files = {}
        for base, _dirs, names in os.walk(root):
            for n in names:
                full = os.path.join(base, n)
                with open(full, "rb") as f:
                    files[os.path.relpath(full, root).replace(os.sep, "/")] = f.read().hex()
        result["trees"][name] = files
    sys.stdout.write(json.dumps(result))


main()
