"""Grades /app/audit.py: findings compared with the planted truth, per rule family."""
import json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "audit.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")


def stage(rel):
    """Copies a public input from the grader's copy into scratch space and returns the copy's path."""
    src, dst = os.path.join(PUB, rel), os.path.join(TMP, "public", rel)
    if os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=True)
    else:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
    return dst
FAMILIES = {
    "plain": None,
    "modes": {"world_writable", "ww_dir_no_sticky", "suid_unexpected", "authorized_keys_perms"},
    "sshd": {"ssh_root_login", "ssh_password_auth"},
    "sudo": {"sudo_nopasswd_all"},
}
tp_all, fp_all = [0], [0]


def f1(truth, got):
    if not truth and not got:
        return 1.0
    tp = len(truth & got)
    return 0.0 if tp == 0 else 2 * tp / (len(truth) + len(got))


def audit(tag, files):
    d = os.path.join(TMP, tag)
    for name, data in sorted(files.items()):
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    out = d + ".json"
    code, _, err = run(["python3", TOOL, d, out], timeout=20)
    try:
        got = {(x["rule"], x["target"]) for x in json.load(open(out))}
    except Exception:
        return None, "exit %s %s" % (code, err.strip()[-150:])
    return got, ""


def hidden(kind, n):
    def fn():
        rng = random.Random("%d!%s" % (SEED, kind))
        scores, msgs = [], []
        for i in range(n):
            files, truth = generate(gen.build, rng, kind)
            got, m = audit("%s%d" % (kind, i), files)
            if got is None:
                scores.append(0.0)
                msgs.append("case %d: %s" % (i, m))
                continue
            tp_all[0] += len(got & truth)
            fp_all[0] += len(got - truth)
            fam = FAMILIES[kind]
            t, gg = (truth, got) if fam is None else ({x for x in truth if x[0] in fam}, {x for x in got if x[0] in fam})
            scores.append(f1(t, gg))
            msgs.append("case %d: F1 %.3f missing %s extra %s" % (i, scores[-1], sorted(t - gg)[:4], sorted(gg - t)[:4]))
        return sum(scores) / n, "; ".join(msgs)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        src = os.path.join(PUB, ex)
        out = os.path.join(TMP, ex + ".json")
        code, _, _ = run(["python3", TOOL, stage(ex + "/snapshot"), out], timeout=20)
        try:
            got = {(x["rule"], x["target"]) for x in json.load(open(out))}
            exp = {(x["rule"], x["target"]) for x in json.load(open(os.path.join(src, "expected.json")))}
            ok.append(got == exp)
        except Exception:
            ok.append(False)
    return float(all(ok)), "examples right: %s" % ok


g.check("public_examples", public)
g.check("hidden_plain", hidden("plain", 2))
g.check("hidden_modes", hidden("modes", 3))
g.check("hidden_sshd_effective", hidden("sshd", 4))
g.check("hidden_sudoers", hidden("sudo", 3))
g.check("precision", lambda: ((tp_all[0] / (tp_all[0] + fp_all[0])) if tp_all[0] else 0.0,
                              "%d true, %d false findings over all hidden snapshots" % (tp_all[0], fp_all[0])))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
