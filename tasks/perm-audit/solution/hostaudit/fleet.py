"""Fleet summary: per-rule counts of findings not accepted, hosts ranked by risk."""
import os
from .audit import audit
from .snapshot import Snapshot

RULES = ["world_writable", "ww_dir_no_sticky", "suid_unexpected", "authorized_keys_perms", "ssh_root_login",
         "ssh_password_auth", "sudo_nopasswd_all", "uid0_nonroot", "empty_password"]
WEIGHT = {"uid0_nonroot": 10, "empty_password": 8, "sudo_nopasswd_all": 6, "ssh_root_login": 5, "suid_unexpected": 4,
          "authorized_keys_perms": 3, "ssh_password_auth": 3, "world_writable": 2, "ww_dir_no_sticky": 1}


def summary(fleet_dir):
    counts = {r: 0 for r in RULES}
    ranking = []
    for name in sorted(os.listdir(fleet_dir)):
        d = os.path.join(fleet_dir, name)
        if not os.path.isdir(d) or not any(os.path.exists(os.path.join(d, f)) for f in ("fs.txt", "fs.txt.gz")):
            continue
        snap = Snapshot(d)
        live = audit(snap) - snap.accepted()
        for r, _ in live:
            counts[r] += 1
        risk = sum(WEIGHT[r] for r, _ in live)
        if snap.host().get("exposure") == "internet":
            risk *= 2
        ranking.append({"host": name, "risk": risk, "findings": len(live)})
    ranking.sort(key=lambda e: (-e["risk"], e["host"]))
    return {"hosts": len(ranking), "rule_counts": counts, "ranking": ranking}
