"""Grades /app/fast_sessionize.py: byte-identical output to the legacy semantics, and speed relative
to a reference run timed in the same sandbox.

The expected output of a hidden log is planted by its generator (gen.py: the sessions are decided
while the log is written); the timed yardstick (timing_ref.py) is the grader's own independent
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
    return float(all(ok)), "examples identical: %s" % ok


def speed():
    if not ratios:
        raise RuntimeError("no large log was timed")
    return (sum(continuous(r, FULL, ZERO) for r in ratios) / len(ratios),
            "CPU time / reference CPU time (best pair): %s" % ["%.2f" % r for r in ratios])


CASES = {k: prepare(k, n) for k, n in (("small", 4), ("ties", 4), ("large", 2))}
for name in os.listdir(REF_TMP):  # the answers now live in memory only
    shutil.rmtree(os.path.join(REF_TMP, name), ignore_errors=True)
g.check("public_examples", public)
g.check("hidden_small", hidden("small", plain_case))
g.check("hidden_ties_boundaries", hidden("ties", plain_case))
g.check("hidden_large_correct", hidden("large", timed_case))
g.check("speed", speed)
shutil.rmtree(TMP, ignore_errors=True)
shutil.rmtree(REF_TMP, ignore_errors=True)
g.finish()
