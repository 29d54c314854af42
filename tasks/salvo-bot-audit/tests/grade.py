"""Grades /app/salvo.py: `count` and `replay` on hidden rules files and legal logs built by
construction (casebook.py), `play` in seeded hidden matches against the grader's own referee and
yardstick, and `audit` on logs with planted violations."""
import csv, json, os, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run, sealed_argv
import arena, casebook, referee

g = Grader()
TOOL = os.path.join(WORK, "salvo.py")
HERE = os.path.dirname(os.path.abspath(__file__))
TMP = tempfile.mkdtemp(prefix="salvo-")
KINDS = ["placement", "call", "out_of_turn", "salvo", "winner", "after_end"]


def lines_of(text):
    return [ln.rstrip() for ln in text.strip().splitlines()]


def tool_lines(args, ro=()):
    code, out, err = run(["python3", TOOL] + args, timeout=20, ro=ro)
    return (lines_of(out) if code == 0 else None), code, err


def csv_rows(path):
    with open(path, newline="") as fh:
        rd = csv.reader(fh)
        head = next(rd, None)
        if head is None or [h.strip() for h in head] != ["log", "line", "code"]:
            raise ValueError("header must be log,line,code; got %r" % (head,))
        return {(r[0].strip(), r[1].strip(), r[2].strip()) for r in rd if len(r) >= 3}


def audit_rows(logdir, tag):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", logdir, out], timeout=60)
    if code != 0 or not os.path.exists(out):
        raise RuntimeError("audit exit %d: %s" % (code, err.strip()[-200:]))
    return csv_rows(out)


def play_cmd(path):
    return sealed_argv(["python3", TOOL, "play", path])


def match(mode, seed):
    r, text, fleets, _ = generate(referee.setup, mode, seed)
    g.digest(json.dumps([mode, seed, text, [sorted(m for _, m in f) for f in fleets]]))
    ref = generate(arena.yardstick.reference_match, r, fleets)
    out = referee.run_match(mode, seed, play_cmd, TMP)
    score = arena.match_score(out["turns"], ref)
    return score, "%s/%s %.3f (%s; yardstick %.2f)" % (mode, seed, score, out["outcome"], ref)


def matches(mode, n):
    def fn():
        res = [match(mode, "h%d-%d" % (SEED, i)) for i in range(n)]
        return sum(s for s, _ in res) / n, "; ".join(m for _, m in res)
    return fn


def hidden_count():
    # even cases: small boards (whole-fleet counts); the rule mix is spread so every rule is exercised
    touch = ["corner", None, "corner", None, "corner", None, "edge", None]
    rotate = ["yes", "mirror", "mirror", "mirror", "no", "mirror", "yes", "yes"]
    cases = []
    for i in range(8):
        force = {"rotate": rotate[i]}
        if touch[i]:
            force["touch"] = touch[i]
        cases.append(generate(casebook.count_case, "h%d-%d" % (SEED, i), i % 2 == 0, force))
    right, notes = 0, []
    for i, (text, want) in enumerate(cases):
        g.digest(text)
        path = os.path.join(TMP, "count-%d.rules" % i)
        with open(path, "w") as fh:
            fh.write(text)
        got, code, err = tool_lines(["count", path])
        if got == want:
            right += 1
        else:
            notes.append("case %d: %s" % (i, "exit %d" % code if got is None else "differs"))
    return right / len(cases), "%d/%d exact; %s" % (right, len(cases), ", ".join(notes[:4]))


def hidden_replay():
    d = os.path.join(TMP, "replay")
    os.makedirs(d)
    right, notes = 0, []
    for i in range(8):
        force = {"salvo": "yes" if i % 4 < 2 else "no", "sunk": ["silent", "named", "silent", "plain"][i % 4]}
        rng = casebook.random.Random("replay-dims/%d/%d" % (SEED, i))
        dims = (rng.randint(7, 11), rng.randint(10, 12))
        rules_name, rules_text, log, want, _ = generate(casebook.build_game, "h%d-r%d" % (SEED, i), set(), force, 0.15, dims)
        g.digest(rules_text + log)
        with open(os.path.join(d, rules_name), "w") as fh:
            fh.write(rules_text)
        path = os.path.join(d, "r%d.log" % i)
        with open(path, "w") as fh:
            fh.write(log)
        got, code, err = tool_lines(["replay", path], ro=[d])
        if got == want:
            right += 1
        else:
            notes.append("log %d: %s" % (i, "exit %d" % code if got is None else "differs"))
    return right / 8.0, "%d/8 exact; %s" % (right, ", ".join(notes[:4]))


def audit_set():
    rng = casebook.random.Random("audit/%d" % SEED)
    kinds = list(KINDS)
    rng.shuffle(kinds)
    plants = [set()] * 2 + [{kinds[i % 6], kinds[(i + 2) % 6]} for i in range(12)]   # each kind 4 times
    rng.shuffle(plants)
    sunk = ["named", "plain", "silent"]
    games = []
    for i, p in enumerate(plants):
        force = {"salvo": "yes" if i % 2 or "out_of_turn" in p else "no", "sunk": sunk[i % 3]}
        if "placement" in p and i % 2:
            force["touch"] = "corner"      # the illegal ship then touches another at a corner only
        games.append(casebook.build_game("h%d-a%d" % (SEED, i), p, force))
    return games


def hidden_audit():
    games = generate(audit_set)
    d = os.path.join(TMP, "audit")
    os.makedirs(d)
    want = {}
    for i, (rules_name, rules_text, log, _, rows) in enumerate(games):
        g.digest(rules_text + log)
        stem = "t%02d" % i
        with open(os.path.join(d, rules_name), "w") as fh:
            fh.write(rules_text)
        with open(os.path.join(d, stem + ".log"), "w") as fh:
            fh.write(log)
        want[stem] = {(stem, str(n), code) for n, code in rows}
    got = audit_rows(d, "hidden")
    right = sum(1 for stem, rows in want.items() if {r for r in got if r[0] == stem} == rows)
    stray = {r[0] for r in got} - set(want)
    total = len(want) + len(stray)
    return right / total, "%d of %d logs exact (%d rows expected, %d reported)" % (
        right, total, sum(len(v) for v in want.values()), len(got))


def public():
    src = os.path.join(HERE, "examples")
    d = os.path.join(TMP, "public")
    shutil.copytree(src, d)
    bad = []
    for stem in ("harbour", "strait"):
        with open(os.path.join(d, "count", stem + ".out")) as fh:
            want = lines_of(fh.read())
        if tool_lines(["count", os.path.join(d, "count", stem + ".rules")])[0] != want:
            bad.append("count " + stem)
    for stem in ("m1", "m2"):
        with open(os.path.join(d, "logs", stem + ".replay")) as fh:
            want = lines_of(fh.read())
        if tool_lines(["replay", os.path.join(d, "logs", stem + ".log")], ro=[os.path.join(d, "logs")])[0] != want:
            bad.append("replay " + stem)
    try:
        if audit_rows(os.path.join(d, "logs"), "public") != csv_rows(os.path.join(d, "audit.csv")):
            bad.append("audit")
    except Exception as e:
        bad.append("audit (%s)" % e)
    score, msg = match("classic", "1")
    if score < 1.0:
        bad.append("practice " + msg)
    return float(not bad), "all match" if not bad else "wrong: " + "; ".join(bad)


g.check("public_examples", public)
g.check("hidden_count", hidden_count)
g.check("hidden_replay", hidden_replay)
g.check("hidden_classic", matches("classic", 2))
g.check("hidden_salvo", matches("salvo", 2))
g.check("hidden_cramped", matches("cramped", 2))
g.check("hidden_audit", hidden_audit)
g.finish()
