"""Grades /app/fast_sessionize.py: byte-identical output to the legacy semantics, speed relative
to a reference run timed in the same sandbox, the incremental mode over a series of daily batches
(each batch one episode) and the audit of published daily reports.

The expected output of a hidden log, batch or report archive is planted by its generator (gen.py:
the sessions are decided while the log is written, the damage to the archive is chosen); the timed yardstick (timing_ref.py) is the grader's own independent
sessionizer, and its output must equal the planted answer on every hidden log (tests/README.md).

Speed is CPU time (user + system, of the program and everything it waits for), not wall time: on a
loaded machine wall time stretches with the run queue while CPU time barely moves. Each timed run of
the submitted program is paired with a reference run right before it, and the best ratio of up to
three such pairs counts, so a burst of load during one pair cannot sink the score."""
import json, os, random, resource, shutil, sys, tempfile, time
sys.path.insert(0, "/tests")
from lh import GENERATE_ONLY, GENERATOR_FAILED, SEED, WORK, GeneratorBroken, Grader, continuous, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
REF_TMP = tempfile.mkdtemp(prefix="ref-")
TOOL = os.path.join(WORK, "fast_sessionize.py")
REF = "/tests/timing_ref.py"  # timed yardstick, see timing_ref.py
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
FULL, ZERO = 3.0, 10.0  # speed: 1 at ≤ 3× the reference's CPU time, 0 at 10×
PAIRS = 3
ratios = []


def outputs(d):
    try:
        return open(os.path.join(d, "sessions.csv"), encoding="utf-8").read(), json.load(open(os.path.join(d, "summary.json"), encoding="utf-8"))
    except Exception:
        return None, None


def timed(argv, timeout):
    """Runs argv via lh.run; returns (code, err, cpu seconds, wall seconds)."""
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    code, _, err = run(argv, timeout=timeout)
    r1, t1 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    return code, err, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), t1 - t0


def planted(rng, kind, tag):
    """Writes one hidden log and returns it with its planted answer (kept in memory only). The
    yardstick runs on it once: a yardstick that disagrees with the planted answer is a bug of the
    grader's, so grading stops as a grading error (exit 87), never a score."""
    data, want = generate(gen.build, rng, kind)
    src = os.path.join(TMP, tag + ".csv")
    with open(src, "wb") as f:
        f.write(data)
    g.digest(data)
    if not GENERATE_ONLY:  # the generator sweep runs no program, the yardstick included
        out = os.path.join(REF_TMP, tag)
        code, _, err = run(["python3", REF, src, out], timeout=120)
        if code != 0 or outputs(out) != want:
            sys.stderr.write("grading error: yardstick and planted answer differ on %s (seed %d): exit %s %s\n"
                             % (tag, SEED, code, err.strip()[-200:]))
            raise GeneratorBroken(GENERATOR_FAILED)
    return tag, src, want


def prepare(kind, n):
    rng = random.Random("%d/%s" % (SEED, kind))
    return [planted(rng, kind, "%s%d" % (kind, i)) for i in range(n)]


def score(got, want):
    return 0.7 * (got[0] == want[0]) + 0.3 * (got[1] == want[1])


def plain_case(tag, src, want):
    out = os.path.join(TMP, tag + "-out")
    code, _, err = run(["python3", TOOL, src, out], timeout=20)
    s = score(outputs(out), want)
    return s, "%s: %.2f (exit %s)%s" % (tag, s, code, (" " + err.strip()[-80:]) if code else "")


def timed_case(tag, src, want):
    """Correctness from the first run; speed from the best of up to PAIRS (reference, program) pairs.
    Only correct, successful runs count for speed. Stops early once full marks are reached or the
    program is clearly too slow (a slow program is not run again)."""
    best, s, notes = None, 0.0, []
    for k in range(PAIRS):
        scratch = os.path.join(REF_TMP, "%s-base%d" % (tag, k))
        _, _, ref_cpu, ref_wall = timed(["python3", REF, src, scratch], 120)
        shutil.rmtree(scratch, ignore_errors=True)
        ref_cpu = max(ref_cpu, 0.05)
        limit = min(20.0, max(6.0, ZERO * ref_wall))
        out = os.path.join(TMP, "%s-out%d" % (tag, k))
        code, err, cpu, wall = timed(["python3", TOOL, src, out], limit)
        got = score(outputs(out), want) if code == 0 else 0.0
        if k == 0:
            s = got
            notes.append("%s: %.2f (exit %s)%s" % (tag, s, code, (" " + err.strip()[-80:]) if code else ""))
        ratio = cpu / ref_cpu if got == 1.0 else float("inf")
        notes.append("cpu %.2fs vs ref %.2fs, wall %.2fs vs %.2fs" % (cpu, ref_cpu, wall, ref_wall))
        best = ratio if best is None else min(best, ratio)
        if best <= FULL or ratio >= ZERO or code != 0:
            break
    ratios.append(best)
    return s, ", ".join(notes)


def hidden(kind, case):
    def fn():
        cases = CASES[kind]
        res = [case(*c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        want = outputs(os.path.join(PUB, ex, "expected"))
        src = os.path.join(TMP, "public", ex, "events.csv")
        os.makedirs(os.path.dirname(src))
        shutil.copyfile(os.path.join(PUB, ex, "events.csv"), src)
        out = os.path.join(TMP, ex + "-out")
        run(["python3", TOOL, src, out], timeout=20)
        got = outputs(out)
        ok.append(got[0] is not None and got == want)
    # The incremental example: every batch's sessions.csv, in day order.
    inc = os.path.join(PUB, "incremental")
    days = sorted(n[:-4] for n in os.listdir(os.path.join(inc, "batches")))
    batches = []
    for day in days:
        src = os.path.join(TMP, "public", "incremental", day + ".csv")
        os.makedirs(os.path.dirname(src), exist_ok=True)
        shutil.copyfile(os.path.join(inc, "batches", day + ".csv"), src)
        batches.append((day, src, open(os.path.join(inc, "expected", day, "sessions.csv"), encoding="utf-8", newline="").read()))
    ok.append(all(r == 1.0 for r in run_series("public-incremental", batches)))
    # The audit example.
    aud = os.path.join(PUB, "audit")
    events = os.path.join(TMP, "public", "audit", "events.csv")
    os.makedirs(os.path.dirname(events))
    shutil.copyfile(os.path.join(aud, "events.csv"), events)
    reports = os.path.join(TMP, "public", "audit", "reports")
    shutil.copytree(os.path.join(aud, "reports"), reports)
    got = run_audit("public-audit", events, reports)[0]
    ok.append(got == json.load(open(os.path.join(aud, "expected", "audit.json"), encoding="utf-8")))
    return float(all(ok)), "example1, example2, incremental, audit identical: %s" % ok


def speed():
    if not ratios:
        raise RuntimeError("no large log was timed")
    return (sum(continuous(r, FULL, ZERO) for r in ratios) / len(ratios),
            "CPU time / reference CPU time (best pair): %s" % ["%.2f" % r for r in ratios])


def stage(name, data):
    path = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path


def prepare_series():
    """Two series of daily batches (names: Unicode/padded names, fractional seconds, blank rows,
    steps of 0/1800/1801 s; bulk: 40–60 users), written as files; expected outputs in memory."""
    rng = random.Random("%d/series" % SEED)
    out = []
    for kind in ("names", "bulk"):
        ser = generate(gen.series, rng, kind)
        batches = []
        for day, data, want in ser:
            g.digest(data)
            batches.append((day, stage("series-%s/%s.csv" % (kind, day), data), want))
        out.append((kind, batches))
    return out


def prepare_audits():
    rng = random.Random("%d/audit" % SEED)
    out = []
    for i, kind in enumerate(("names", "bulk", "names")):
        data, files, want = generate(gen.audit_case, rng, kind)
        g.digest(data)
        events = stage("audit%d/events.csv" % i, data)
        for name in sorted(files):
            g.digest(files[name])
            stage("audit%d/reports/%s" % (i, name), files[name])
        out.append(("audit%d" % i, events, os.path.join(TMP, "audit%d" % i, "reports"), want))
    return out


def run_series(tag, batches):
    """Runs the batches in day order, each with the state the previous run saved; returns one
    1/0 per batch: its sessions.csv is exactly the expected one."""
    results, prev = [], None
    folder = os.path.join(TMP, tag + "-run")
    os.makedirs(folder)
    for k, (day, src, want) in enumerate(batches):
        save = os.path.join(folder, "state-%d" % k)
        out = os.path.join(folder, "out-%d" % k)
        argv = ["python3", TOOL, "--day", day, "--save", save]
        if prev is not None:
            argv += ["--state", prev]
        if k == len(batches) - 1:
            argv.append("--final")
        run(argv + [src, out], timeout=20)
        try:
            got = open(os.path.join(out, "sessions.csv"), encoding="utf-8", newline="").read()
        except Exception:
            got = None
        results.append(1.0 if got == want else 0.0)
        prev = save
    return results


def hidden_incremental():
    eps, notes = [], []
    for kind, batches in SERIES:
        res = run_series("series-" + kind, batches)
        eps += res
        notes.append("%s: %d/%d batches" % (kind, sum(res), len(res)))
    return sum(eps) / len(eps), "; ".join(notes)


def run_audit(tag, events, reports):
    out = os.path.join(TMP, tag + "-out")
    code, _, err = run(["python3", TOOL, "--audit", reports, events, out], timeout=30)
    try:
        return json.load(open(os.path.join(out, "audit.json"), encoding="utf-8")), code, err
    except Exception:
        return None, code, err


def hidden_audit():
    ok, notes = [], []
    for tag, events, reports, want in AUDITS:
        got, code, err = run_audit(tag, events, reports)
        ok.append(got == want)
        notes.append("%s: %s (exit %s)%s" % (tag, got == want, code, (" " + err.strip()[-80:]) if code else ""))
    return sum(ok) / len(ok), "; ".join(notes)


CASES = {k: prepare(k, n) for k, n in (("small", 4), ("ties", 4), ("large", 2))}
SERIES = prepare_series()
AUDITS = prepare_audits()
for name in os.listdir(REF_TMP):  # the answers now live in memory only
    shutil.rmtree(os.path.join(REF_TMP, name), ignore_errors=True)
g.check("public_examples", public)
g.check("hidden_small", hidden("small", plain_case))
g.check("hidden_ties_boundaries", hidden("ties", plain_case))
g.check("hidden_large_correct", hidden("large", timed_case))
g.check("speed", speed)
g.check("hidden_incremental", hidden_incremental)
g.check("hidden_audit", hidden_audit)
shutil.rmtree(TMP, ignore_errors=True)
shutil.rmtree(REF_TMP, ignore_errors=True)
g.finish()
