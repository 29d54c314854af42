"""The shipped project (/app/project) as planned data: its files, its previous build, the changes
made since, two recorded builds to audit, and the grading of the agent's final project folder.

Expected report numbers come from the planted sales rows (construction), the expected runs and
state from gen.py's planned graph of the project (the Buildfile's meaning written out by hand)."""
import hashlib
import json
import os

import gen

REGIONS = ["north", "south", "east", "west"]
ROUND = 1
TOOLS = b'''#!/usr/bin/env python3
"""Sales pipeline steps: clean, sum, report, summary. Each run is logged to build/runs.log."""
import json
import os
import sys


def log(target):
    os.makedirs("build", exist_ok=True)
    with open("build/runs.log", "a") as f:
        f.write(target + "\\n")


def main(argv):
    step = argv[0]
    if step == "clean":
        src, dst = argv[1], argv[2]
        rows = []
        for line in open(src):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            item, amount = [c.strip() for c in line.split(",")]
            rows.append("%s,%s" % (item.lower(), amount))
        with open(dst, "w") as f:
            f.write("\\n".join(rows) + "\\n")
        log(dst)
    elif step == "sum":
        src, dst, nd = argv[1], argv[2], int(argv[3])
        total = 0
        for line in open(src).read().split("\\n")[1:]:
            if line:
                total += int(line.split(",")[1])
        region = os.path.basename(dst)[:-4]
        with open(dst, "w") as f:
            f.write("%s %.*f\\n" % (region, nd, total / 100))
        log(dst)
    elif step == "report":
        dst, parts = argv[1], argv[2:]
        lines = sorted(open(p).read().strip() for p in parts)
        total = sum(float(x.split()[1]) for x in lines)
        with open(dst, "w") as f:
            f.write("\\n".join(lines) + "\\ntotal %.2f\\n" % total)
        log(dst)
    elif step == "summary":
        src, dst = argv[1], argv[2]
        lines = open(src).read().strip().split("\\n")
        doc = {"regions": len(lines) - 1, "total": lines[-1].split()[1]}
        with open(dst, "w") as f:
            f.write(json.dumps(doc, sort_keys=True) + "\\n")
        log(dst)
    else:
        sys.exit("unknown step " + step)


if __name__ == "__main__":
    main(sys.argv[1:])
'''

BUILDFILE = """# Sales report: cleans each region's sales, sums them, writes the report and its summary.
PY = python3
STEP = $(PY) tools/step.py
SUMS = $(SUMDIR)/north.txt $(SUMDIR)/south.txt $(SUMDIR)/east.txt $(SUMDIR)/west.txt
SUMDIR := build/sum
ROUND = 2

all: dist/report.txt dist/summary.json
.PHONY: all dirs

dirs:
\tmkdir -p build/clean build/sum dist

build/clean/%.csv: data/%.csv tools/step.py | dirs
\t$(STEP) clean $< $@

build/sum/%.txt: build/clean/%.csv tools/step.py
\t$(STEP) sum $< $@ $(ROUND)

dist/report.txt: $(SUMS) tools/step.py | dirs
\t$(STEP) report $@ $(SUMS)

dist/summary.json: dist/report.txt tools/step.py
\t$(STEP) summary $< $@

# two decimals were too many for the sums
ROUND = 1
"""


def sales(seed):
    """Planted rows per region: (item, cents)."""
    from lh import Rng
    rng = Rng(seed)
    out = {}
    for r in REGIONS:
        out[r] = [(rng.pick(gen.WORDS).capitalize() if rng.next() < 0.5 else rng.pick(gen.WORDS), rng.int(100, 99999))
                  for _ in range(rng.int(4, 8))]
    return out


def csv_text(rows, rng):
    lines = ["item,amount"]
    for item, cents in rows:
        if rng.next() < 0.2:
            lines.append("# checked")
        if rng.next() < 0.15:
            lines.append("")
        lines.append(" %s , %d" % (item, cents) if rng.next() < 0.3 else "%s,%d" % (item, cents))
    return "\n".join(lines) + "\n"


def model():
    """The Buildfile's meaning, written out as a planned graph."""
    g = gen.Graph()
    g.add("dirs", [], [], [], phony=True)
    g.targets["dirs"]["cmds"] = ["mkdir -p build/clean build/sum dist"]
    for r in REGIONS:
        c = "build/clean/%s.csv" % r
        s = "build/sum/%s.txt" % r
        g.add(c, ["data/%s.csv" % r, "tools/step.py"], ["dirs"], [], stem=r)
        g.targets[c]["cmds"] = ["python3 tools/step.py clean data/%s.csv %s" % (r, c)]
        g.add(s, [c, "tools/step.py"], [], [], stem=r)
        g.targets[s]["cmds"] = ["python3 tools/step.py sum %s %s %d" % (c, s, ROUND)]
    sums = ["build/sum/%s.txt" % r for r in REGIONS]
    g.add("dist/report.txt", sums + ["tools/step.py"], ["dirs"], [])
    g.targets["dist/report.txt"]["cmds"] = ["python3 tools/step.py report dist/report.txt " + " ".join(sums)]
    g.add("dist/summary.json", ["dist/report.txt", "tools/step.py"], [], [])
    g.targets["dist/summary.json"]["cmds"] = ["python3 tools/step.py summary dist/report.txt dist/summary.json"]
    g.add("all", ["dist/report.txt", "dist/summary.json"], [], [], phony=True)
    return g


def outputs(rows):
    """Every output's bytes for the given sales rows (the steps' meaning)."""
    files = {}
    sum_lines = {}
    for r in REGIONS:
        files["build/clean/%s.csv" % r] = ("item,amount\n" + "".join("%s,%d\n" % (i.lower(), c) for i, c in rows[r])).encode()
        total = sum(c for _, c in rows[r])
        sum_lines[r] = "%s %.*f" % (r, ROUND, total / 100)
        files["build/sum/%s.txt" % r] = (sum_lines[r] + "\n").encode()
    lines = sorted(sum_lines.values())
    grand = sum(float(x.split()[1]) for x in lines)
    files["dist/report.txt"] = ("\n".join(lines) + "\ntotal %.2f\n" % grand).encode()
    files["dist/summary.json"] = (json.dumps({"regions": len(REGIONS), "total": "%.2f" % grand}, sort_keys=True) + "\n").encode()
    return files


def built_state(g, files):
    st = {}
    for n in gen.build_order(g, [x for x in g.targets]):
        t = g.targets[n]
        if t["phony"]:
            continue
        st[n] = {"ok": True, "command": gen.cmd_hash(t["cmds"]), "inputs": {p: gen.sha(files[p]) for p in gen.hashed_pre(g, t)},
                 "output": gen.sha(files[n]), "built_at": gen.T0}
    return st


def build():
    """(files {path: (bytes, mtime)}, answers) of /app/project."""
    from lh import Rng
    rng = Rng(20261203)
    old_rows = sales(7)
    g = model()
    files = {"Buildfile": BUILDFILE.encode(), "tools/step.py": TOOLS}
    for r in REGIONS:
        files["data/%s.csv" % r] = csv_text(old_rows[r], rng).encode()
    files.update(outputs(old_rows))
    state = built_state(g, files)
    mt = {p: gen.OLD for p in files}
    # previous runs log
    runs_before = [n for n in gen.build_order(g, list(g.targets)) if not g.targets[n]["phony"]]
    # changes since: north edited (old mtime), west touched (same bytes), south's last sum failed
    new_rows = {r: list(v) for r, v in old_rows.items()}
    new_rows["north"] = new_rows["north"] + [("Quill", 4321)]
    new_rows["north"][0] = (new_rows["north"][0][0], new_rows["north"][0][1] + 250)
    files["data/north.csv"] = csv_text(new_rows["north"], rng).encode()
    mt["data/north.csv"] = gen.OLD - 300
    mt["data/west.csv"] = gen.T0 + 3600
    state["build/sum/south.txt"]["ok"] = False
    state["build/sum/south.txt"]["output"] = None
    files["build/runs.log"] = ("\n".join(runs_before) + "\nbuild/sum/south.txt\n").encode()
    files[".minibuild/state.json"] = json.dumps({"version": 1, "targets": state}, indent=1, sort_keys=True).encode()
    mt[".minibuild/state.json"] = gen.T0 + 10
    mt["build/runs.log"] = gen.T0 + 10
    out = {p: (b, mt.get(p, gen.OLD)) for p, b in files.items()}
    # the expected build
    cur = {p: b for p, b in files.items()}
    order, rs = gen.reasons(g, ["all"], cur, state)
    runs = [n for n in order if rs[n] != "up_to_date"]
    final = dict(cur)
    final.update(outputs(new_rows))
    answers = {"runs": runs, "runs_before": files["build/runs.log"].decode(), "final": final, "model": g}
    # two recorded builds to audit, each a copy of the project as it was before that build
    audits = {}
    for name, arng_seed in (("monday", 11), ("tuesday", 12)):
        arng = Rng(arng_seed)
        afiles = {p: b for p, b in cur.items() if not p.startswith(".minibuild/") and p != "build/runs.log"}
        astate = json.loads(json.dumps(state))
        if name == "tuesday":
            # a command change recorded against an older ROUND, and a hand-edited output
            astate["build/sum/east.txt"]["command"] = gen.cmd_hash(["python3 tools/step.py sum build/clean/east.csv build/sum/east.txt 2"])
            afiles["dist/summary.json"] = afiles["dist/summary.json"] + b"\n"
        order_a, rs_a = gen.reasons(g, ["all"], afiles, astate)
        dirty = [n for n in order_a if rs_a[n] != "up_to_date"]
        keep_going = name == "tuesday"
        ran = []
        for n in order_a:
            if n in dirty and (arng.next() < 0.75 or g.targets[n]["phony"]):
                ran.append(n)
            elif rs_a[n] == "up_to_date" and not g.targets[n]["phony"] and arng.next() < 0.3:
                ran.append(n)
        failed = {ran[2]} if name == "tuesday" and len(ran) > 2 else set()
        log = ["# minibuild log", "# goals: all", "# keep_going: %s" % ("yes" if keep_going else "no")]
        for n in ran:
            log += ["run " + n, ("fail " if n in failed else "ok ") + n]
        rows = gen.audit_rows(g, ["all"], afiles, astate, keep_going, ran, failed)
        af = {("audits/%s/%s" % (name, p)): (b, gen.OLD) for p, b in afiles.items()}
        af["audits/%s/state.json" % name] = (json.dumps({"version": 1, "targets": astate}, indent=1, sort_keys=True).encode(), gen.T0)
        af["audits/%s/build.log" % name] = (("\n".join(log) + "\n").encode(), gen.T0 + 100)
        out.update(af)
        audits[name] = rows
    answers["audits"] = audits
    return out, answers


def grade_project(ans, root, rc, log, audits, read_rows):
    """Scores the project folder after the program's build, its log and the audit outputs."""
    g = ans["model"]
    parts, notes = [], []

    def read(p):
        try:
            with open(os.path.join(root, p), "rb") as f:
                return f.read()
        except OSError:
            return None
    # outputs right
    outs = ["build/clean/%s.csv" % r for r in REGIONS] + ["build/sum/%s.txt" % r for r in REGIONS] + ["dist/report.txt", "dist/summary.json"]
    good = sum(1 for p in outs if read(p) == ans["final"][p])
    parts.append(1.0 if good == len(outs) else 0.0)
    notes.append("outputs %d/%d" % (good, len(outs)))
    # exactly the necessary steps ran, once, in build order, and the log says so
    runs_log = (read("build/runs.log") or b"").decode(errors="replace")
    want_tail = [n for n in ans["runs"] if not g.targets[n]["phony"]]
    ok_runs = runs_log.startswith(ans["runs_before"]) and runs_log[len(ans["runs_before"]):].split() == want_tail
    got_runs = [x[4:].strip() for x in (log or "").split("\n") if x.startswith("run ")]
    ok_runs = ok_runs and got_runs == ans["runs"] and rc == 0
    parts.append(1.0 if ok_runs else 0.0)
    notes.append("steps run %s" % ("right" if ok_runs else "wrong"))
    # state consistent with the final files
    try:
        st = json.loads(read(".minibuild/state.json"))["targets"]
    except Exception:
        st = {}
    okst = 0
    names = [n for n in g.targets if not g.targets[n]["phony"]]
    for n in names:
        t = g.targets[n]
        e = st.get(n) or {}
        want = {"ok": True, "command": gen.cmd_hash(t["cmds"]), "output": gen.sha(ans["final"][n]),
                "inputs": {p: gen.sha(ans["final"][p]) for p in gen.hashed_pre(g, t)}}
        if all(e.get(k) == v for k, v in want.items()):
            okst += 1
    parts.append(1.0 if okst == len(names) else 0.0)
    notes.append("state %d/%d" % (okst, len(names)))
    # audits
    for name, rows in sorted(ans["audits"].items()):
        got = read_rows(audits.get(name))
        n = max(len(rows), len(got or ()))
        s = 0.0 if got is None else (1.0 if n == 0 else len(rows & got) / n)
        parts.append(s)
        notes.append("audit %s %.2f" % (name, s))
    return sum(parts) / len(parts), "; ".join(notes)


def digest_bytes():
    files, _ = build()
    return hashlib.sha256(b"".join(k.encode() + v[0] for k, v in sorted(files.items()))).hexdigest()
