"""Grades the repaired /app/hostaudit.py: `audit` on the public snapshots and on seeded hidden ones
whose findings are planted by construction (gen.py), `fleet` on hidden fleets, `plan` on hidden
snapshots, and both on the grader's own copy of the shipped fleet (answers in tests/fleet)."""
import json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "hostaudit.py")
# The grader's own copies of the public cases and of the shipped fleet: /app is the agent's to edit,
# so neither inputs nor answers are read from there.
HERE = os.path.dirname(os.path.abspath(__file__))
FAMILIES = {
    "plain": None,
    "modes": gen.FILE_RULES,
    "sshd": {"ssh_root_login", "ssh_password_auth"},
    "sudo": {"sudo_nopasswd_all"},
}
tp_all, fp_all = [0], [0]


def write(d, files):
    for name, data in sorted(files.items()):
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception:
        return None


def f1(truth, got):
    if not truth and not got:
        return 1.0
    tp = len(truth & got)
    return 0.0 if tp == 0 else 2 * tp / (len(truth) + len(got))


def findings(obj):
    try:
        return {(x["rule"], x["target"]) for x in obj}
    except Exception:
        return None


def action(a):
    """An action as a comparable tuple; anything malformed compares unequal to every expected one."""
    try:
        k = a["action"]
        if k == "chmod":
            return (k, a["path"], int(str(a["mode"]), 8))
        if k == "sshd_set":
            return (k, a["keyword"], a["value"])
        if k == "sudo_remove":
            return (k, a["file"], int(a["line"]))
        if k in ("lock", "remove_user"):
            return (k, a["user"])
    except Exception:
        pass
    return ("malformed", json.dumps(a, sort_keys=True))


def score_plan(want, got):
    """Share of expected actions reproduced exactly (extras count against it); halved when the
    actions in common are not in the expected order."""
    if not isinstance(got, list):
        return 0.0
    got = [action(a) for a in got]
    ws, gs = set(want), set(got)
    n = max(len(ws), len(gs), len(got))
    if n == 0:
        return 1.0
    share = len(ws & gs) / n
    order_ok = [a for a in got if a in ws] == [a for a in want if a in gs]
    return share * (1.0 if order_ok else 0.5)


def score_fleet(want, got):
    """30%: host count and the nine rule counts; 70%: share of ranking entries exactly right."""
    if not isinstance(got, dict):
        return 0.0
    counts = got.get("rule_counts") if isinstance(got.get("rule_counts"), dict) else {}
    c = (sum(counts.get(r) == v for r, v in want["rule_counts"].items()) + (got.get("hosts") == want["hosts"])) / 10
    rank = got.get("ranking") if isinstance(got.get("ranking"), list) else []
    n = max(len(rank), len(want["ranking"]))
    hit = sum(1 for a, b in zip(rank, want["ranking"]) if isinstance(a, dict) and
              {k: a.get(k) for k in ("host", "risk", "findings")} == b)
    return 0.3 * c + 0.7 * (hit / n if n else 1.0)


def tool(cmd, src, out):
    code, _, err = run(["python3", TOOL, cmd, src, out], timeout=30)
    return load(out), ("" if code == 0 else " (exit %s %s)" % (code, err.strip()[-120:]))


def prepare():
    """Every hidden case with its planted answer, built before any submitted program runs."""
    cases = {}
    for kind, n in (("plain", 2), ("modes", 3), ("sshd", 4), ("sudo", 3)):
        rng = random.Random("%d!%s" % (SEED, kind))
        cases[kind] = []
        for i in range(n):
            files, info = generate(gen.build, rng, kind)
            d = os.path.join(TMP, "%s%d" % (kind, i))
            write(d, files)
            cases[kind].append((d, info))
    rng = random.Random("%d!plan" % SEED)
    cases["plan"] = []
    for i, kind in enumerate(("full", "full", "full", "modes")):
        files, info = generate(gen.build, rng, kind)
        d = os.path.join(TMP, "plan%d" % i)
        write(d, files)
        cases["plan"].append((d, info))
    rng = random.Random("%d!fleet" % SEED)
    cases["fleet"] = []
    for i in range(2):
        hosts, summary = generate(gen.fleet, rng, 4)
        d = os.path.join(TMP, "fleet%d" % i)
        for h, (files, _) in hosts.items():
            write(os.path.join(d, h), files)
        write(d, {"README.md": b"# fleet\n", "_template/host.json": b'{"exposure": "internet"}\n',
                  "_template/accepted.txt": b"world_writable /tmp/x\n"})
        cases["fleet"].append((d, summary))
    return cases


def hidden(kind):
    def fn():
        scores, msgs = [], []
        for i, (d, info) in enumerate(CASES[kind]):
            obj, note = tool("audit", d, d + ".json")
            got, truth = findings(obj), info["truth"]
            if got is None:
                scores.append(0.0)
                msgs.append("case %d: no findings%s" % (i, note))
                continue
            tp_all[0] += len(got & truth)
            fp_all[0] += len(got - truth)
            fam = FAMILIES[kind]
            t, gg = (truth, got) if fam is None else ({x for x in truth if x[0] in fam}, {x for x in got if x[0] in fam})
            scores.append(f1(t, gg))
            msgs.append("case %d: F1 %.3f missing %s extra %s" % (i, scores[-1], sorted(t - gg)[:3], sorted(gg - t)[:3]))
        return sum(scores) / len(scores), "; ".join(msgs)
    return fn


def hidden_plans():
    scores, msgs = [], []
    for i, (d, info) in enumerate(CASES["plan"]):
        obj, note = tool("plan", d, d + ".plan.json")
        scores.append(score_plan(info["plan"], obj))
        msgs.append("case %d: %.3f%s" % (i, scores[-1], note))
    return sum(scores) / len(scores), "; ".join(msgs)


def hidden_fleet():
    scores, msgs = [], []
    for i, (d, want) in enumerate(CASES["fleet"]):
        obj, note = tool("fleet", d, d + ".out.json")
        scores.append(score_fleet(want, obj))
        msgs.append("fleet %d: %.3f%s" % (i, scores[-1], note))
    return sum(scores) / len(scores), "; ".join(msgs)


def shipped():
    """The shipped fleet: its summary (60%) and the plan of each host (40%), on the grader's copy."""
    src = os.path.join(TMP, "shipped")
    shutil.copytree(os.path.join(HERE, "fleet", "hosts"), src, symlinks=True)
    obj, note = tool("fleet", src, src + ".out.json")
    s = score_fleet(load(os.path.join(HERE, "fleet", "expected.json")), obj)
    plans = sorted(os.listdir(os.path.join(HERE, "fleet", "plans")))
    ps = []
    for p in plans:
        h = p[:-len(".json")]
        want = [action(a) for a in load(os.path.join(HERE, "fleet", "plans", p))]
        got, _ = tool("plan", os.path.join(src, h), os.path.join(TMP, "shipped-plan-" + p))
        ps.append(score_plan(want, got))
    return 0.6 * s + 0.4 * sum(ps) / len(ps), "summary %.3f%s; plans %s" % (s, note, ["%.2f" % x for x in ps])


def public():
    ok = []
    for ex in ("example1", "example2"):
        src = os.path.join(HERE, "examples", ex)
        d = os.path.join(TMP, "public", ex)
        shutil.copytree(os.path.join(src, "snapshot"), d, symlinks=True)
        got, _ = tool("audit", d, d + ".json")
        plan, _ = tool("plan", d, d + ".plan.json")
        want = findings(load(os.path.join(src, "expected", "findings.json")))
        want_plan = [action(a) for a in load(os.path.join(src, "expected", "plan.json"))]
        ok.append(findings(got) == want and score_plan(want_plan, plan) == 1.0)
    return float(all(ok)), "examples right: %s" % ok


CASES = generate(prepare)
g.check("public_examples", public)
g.check("hidden_plain", hidden("plain"))
g.check("hidden_modes", hidden("modes"))
g.check("hidden_sshd_effective", hidden("sshd"))
g.check("hidden_sudoers", hidden("sudo"))
g.check("precision", lambda: ((tp_all[0] / (tp_all[0] + fp_all[0])) if tp_all[0] else 0.0,
                              "%d true, %d false findings over all hidden snapshots" % (tp_all[0], fp_all[0])))
g.check("hidden_fleet", hidden_fleet)
g.check("hidden_plans", hidden_plans)
g.check("shipped_fleet", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
