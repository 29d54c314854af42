"""Plays seeded hidden codebreak episodes against the grader's own referee with /app/player.py, and
checks /app/audit.py on recorded games built by construction (casebook.py)."""
import csv, json, os, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, STOP_AT_FIRST_FAILURE, WORK, Grader, generate, run, sealed_argv
import casebook
import referee

g = Grader()
# Both programs run sealed: no /tests (the referee, its seeds, the casebook), no seed, no reward files.
PLAY = sealed_argv(["python3", os.path.join(WORK, "player.py")])
TOOL = os.path.join(WORK, "audit.py")
TMP = tempfile.mkdtemp(prefix="hidden-")
HERE = os.path.dirname(os.path.abspath(__file__))


def episodes(mode, n):
    def fn():
        recs = []
        for i in range(n):
            seed = "h%d-%d" % (SEED, i)
            _, palette, secret, _ = generate(referee.setup, mode, seed)
            g.digest(json.dumps([mode, seed, palette, secret]))
            recs.append(referee.run_episode(mode, seed, PLAY))
        return sum(r["score"] for r in recs) / n, json.dumps([r["outcome"] for r in recs])
    return fn


def read_rows(path):
    with open(path, newline="") as fh:
        r = csv.DictReader(fh)
        if r.fieldnames is None or [f.strip() for f in r.fieldnames] != ["game", "verdict", "turn", "remaining"]:
            raise ValueError("header must be game,verdict,turn,remaining; got %r" % (r.fieldnames,))
        return [{k.strip(): (v or "").strip() for k, v in row.items() if k} for row in r]


def run_tool(games_dir, tag):
    out = os.path.join(TMP, tag + ".csv")
    code, _, err = run(["python3", TOOL, games_dir, out], timeout=180)
    if code != 0 or not os.path.exists(out):
        raise RuntimeError("audit.py exit %d: %s" % (code, err.strip()[-300:]))
    return read_rows(out)


def as_int(text):
    try:
        return int(text)
    except ValueError:
        return None


_hidden = {}


def hidden_set():
    if not _hidden:
        games = generate(casebook.make_set, "h%d" % SEED, 24)
        d = os.path.join(TMP, "games")
        os.makedirs(d)
        for name, text, row, _ in games:
            g.digest(text)
            with open(os.path.join(d, name + ".log"), "w") as fh:
                fh.write(text)
        want = {name: row for name, _, row, _ in games}
        try:
            got = run_tool(d, "hidden")
        except Exception as e:
            got = e
        _hidden.update(want=want, got=got)
    if isinstance(_hidden["got"], Exception):
        raise _hidden["got"]
    return _hidden["want"], _hidden["got"]


def share(pick):
    def fn():
        want, got = hidden_set()
        seen, right = set(), 0
        for row in got:
            name = row.get("game", "")
            if name in want and name not in seen and pick(want[name]) == pick((row.get("verdict"), as_int(row.get("turn", "")), as_int(row.get("remaining", "")))):
                right += 1
            seen.add(name)
        denom = max(len(want), len(got))
        return right / denom, "%d of %d games right (%d rows)" % (right, len(want), len(got))
    return fn


def public():
    src = os.path.join(HERE, "examples")
    d = os.path.join(TMP, "public-games")
    shutil.copytree(os.path.join(src, "games"), d)
    want = read_rows(os.path.join(src, "expected.csv"))
    got = run_tool(d, "public")
    audit_ok = got == want
    recs = []
    for mode, s in (("classic", 1), ("chatty", 1)):
        recs.append(referee.run_episode(mode, s, PLAY))
        # A run that only has to show a score below 1 need not wait out a hung player's second stall.
        if STOP_AT_FIRST_FAILURE and recs[-1]["score"] != 1.0:
            break
    play_ok = all(r["score"] == 1.0 for r in recs)
    return float(audit_ok and play_ok), "audit %s; practice classic/1, chatty/1: %s" % (
        "matches" if audit_ok else "differs", [r["outcome"] for r in recs])


g.check("public_examples", public)
g.check("hidden_classic", episodes("classic", 3))
g.check("hidden_norepeat", episodes("norepeat", 3))
g.check("hidden_wide", episodes("wide", 3))
g.check("hidden_chatty", episodes("chatty", 3))
g.check("hidden_audit_verdicts", share(lambda r: (r[0], r[1])))
g.check("hidden_audit_remaining", share(lambda r: r[2]))
g.finish()
