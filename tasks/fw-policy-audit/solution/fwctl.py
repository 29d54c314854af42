#!/usr/bin/env python3
"""fwctl: reachability queries and rule-base audits over firewall configuration trees.

  fwctl.py query CONFIG_DIR QUERIES.csv OUT.csv
  fwctl.py audit SERIES_DIR OUT.json
"""
import csv, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fwaudit import ConfigError, decide, load  # noqa: E402
from fwaudit.addr import format_ip  # noqa: E402
from fwaudit.audit import audit_series  # noqa: E402


def cmd_query(config_dir, queries, out):
    cfg = load(os.path.join(config_dir, "main.conf"))
    with open(queries, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "verdict", "rule", "real_dst"])
        for q in rows:
            proto = q["proto"].strip().lower()
            port = (q.get("port") or "").strip() or "0"
            verdict, seq, real = decide(cfg, q["src"].strip(), q["dst"].strip(), proto, int(port))
            w.writerow([q["id"], verdict, "default" if seq is None else seq, format_ip(real)])


def cmd_audit(series, out):
    with open(out, "w", encoding="utf-8") as f:
        json.dump(audit_series(series), f, indent=1)
        f.write("\n")


def main(argv):
    if len(argv) == 4 and argv[0] == "query":
        cmd_query(*argv[1:])
    elif len(argv) == 3 and argv[0] == "audit":
        cmd_audit(*argv[1:])
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (ConfigError, OSError) as e:
        print("fwctl: %s" % e, file=sys.stderr)
        sys.exit(1)
