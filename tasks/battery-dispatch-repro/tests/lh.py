# longhaul verifier kit lh.py version 11 -- canonical copy: kit/lh.py; refresh with `longhaul task kit-update TASK`
"""The longhaul verifier kit: one file, standard library only, copied into a task's tests/.

Grading: per-subtask error isolation, continuous scoring, the two reward files, sealed runs of the
agent's programs. Stress cases: a seeded generator (Rng, the same stream as longhaul's host-side
Rng) and pure perturbations of records, text, bytes, file layouts and PNG images; the same seed
always gives the same output. Every rubric id always gets a score. Documented in docs/grader-kit.md.
"""
import base64
import datetime
import gzip
import hashlib
import json
import math
import operator
import os
import posixpath
import re
import struct
import subprocess
import sys
import threading
import time
import traceback
import zlib

KIT_VERSION = 11

OUT = os.environ.get("LONGHAUL_VERIFIER_DIR", "/logs/verifier")
def _seed_from_env():
    """LONGHAUL_SEED when the harness gives one; otherwise (plain Harbor) a fresh draw, recorded in
    reward-details.json, so hidden cases differ between trials and a run can still be repeated."""
    given = os.environ.get("LONGHAUL_SEED", "").strip()
    if given:
        return int(given), "LONGHAUL_SEED"
    return int.from_bytes(os.urandom(4), "big") & 0x7FFFFFFF, "drawn"


SEED, SEED_SOURCE = _seed_from_env()
WORK = os.environ.get("LONGHAUL_WORKDIR", "/app")


def rubric_ids(path="/tests/rubric.toml"):
    ids, weights, cur = [], {}, None
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith("id"):
                cur = s.split("=", 1)[1].strip().strip('"')
                ids.append(cur)
            elif s.startswith("weight") and cur:
                weights[cur] = float(s.split("=", 1)[1])
    return ids, weights


def continuous(err, tol, cutoff):
    """1 within tol, linear decay to 0 at cutoff."""
    if err != err or err is None:
        return 0.0
    if err <= tol:
        return 1.0
    if err >= cutoff:
        return 0.0
    return (cutoff - err) / (cutoff - tol)


SEALED_RUN = os.environ.get("LONGHAUL_SEALED_RUN", "/longhaul/kit/sealed-run")
# Under plain Harbor nothing is mounted at /longhaul: without the sealed runner, run() runs the
# program unsealed and the subtask's details record "sealed": false.
_UNSEALED = set()
_CURRENT = [None]


def sealed_available():
    """True when the sealed runner exists (longhaul mounts it; plain Harbor does not)."""
    return os.path.exists(SEALED_RUN)


def _note_unsealed():
    _UNSEALED.add(_CURRENT[0])
SEALED_FAILED = 86  # exit status when the sealed runner is broken: a grading error, not a score
# Set only when the question is whether R is below 1 (RES verification's bare-oracle trial,
# docs/scale.md): after the first weighted subtask below 1 the answer is known, so the rest are
# not run and score 0. Never set for a scored trial.
STOP_AT_FIRST_FAILURE = os.environ.get("LONGHAUL_STOP_AT_FIRST_FAILURE") == "1"
# Set only when the question is whether R is below a threshold (task check's mutant sample: is
# R < 0.95?): once the weight already lost makes R >= the threshold impossible, the rest are not
# run and score 0. Never set for a scored trial.
STOP_BELOW = float(os.environ.get("LONGHAUL_STOP_BELOW") or 0)


def _run_deadline():
    given = os.environ.get("LONGHAUL_RUN_DEADLINE", "").strip()
    return float(given) if given else None


# Unix time after which no candidate program runs (set by longhaul's runner a reserve before the
# verifier's hard limit; the sealed runner enforces it too). A program that hangs on every call
# then costs the verifier's time once: the subtasks not reached score 0 ("not run") and the trial
# is scored, instead of ending as a grading error at the hard limit. None: no deadline (plain Harbor).
RUN_DEADLINE = _run_deadline()


def time_left():
    """Seconds left for candidate programs (None when there is no deadline)."""
    return None if RUN_DEADLINE is None else RUN_DEADLINE - time.time()


def _busy_seconds():
    """Seconds this process was running or ready to run (waiting only for a CPU): on a loaded
    machine a busy grader gets less CPU but is not idle. From /proc/self/schedstat (run time and
    run-queue wait, ns); where that is missing, the process's own CPU time."""
    try:
        with open("/proc/self/schedstat") as f:
            run_ns, wait_ns = f.read().split()[:2]
        return (int(run_ns) + int(wait_ns)) / 1e9
    except (OSError, ValueError):
        return sum(os.times()[:2])


_STARTED = (time.time(), _busy_seconds())
GRADER_TOO_SLOW = 88  # exit status when the deadline passed while the grader itself was busy


class GraderTooSlow(SystemExit):
    """A SystemExit, so Grader.check cannot turn the grader's own slowness into the candidate's 0."""


# What the candidate's programs handed the grader (bytes, files): reading and parsing it is work the
# candidate chose, so it is not counted as the grader's own (see _blame_deadline).
_CANDIDATE_OUTPUT = [0, 0]
# Grader seconds allowed per MB and per file of candidate output: about twice what pure-Python
# parsing (csv, JSON lines, float conversion) costs on a loaded 2-core machine (≈ 0.09 s per MB).
BUSY_ALLOWANCE_PER_MB = 0.25
BUSY_ALLOWANCE_PER_FILE = 0.002


def _output_allowance():
    size, files = _CANDIDATE_OUTPUT
    return size / 1e6 * BUSY_ALLOWANCE_PER_MB + files * BUSY_ALLOWANCE_PER_FILE


def _blame_deadline():
    """The deadline passed: whose time was it? A grader that spent most of the elapsed time on
    its own CPU (generating cases, computing answers) ran out of time by itself, and that is a
    grading error; a grader that mostly waited was waiting on the candidate's programs. Time the
    grader may have spent on what the candidate produced is the candidate's: otherwise a program
    that floods its output (up to OUTPUT_CAP a stream, any number of files) could keep the grader
    busy on purpose and turn its own 0 into a grading error."""
    wall = time.time() - _STARTED[0]
    busy = _busy_seconds() - _STARTED[1]
    own = busy - _output_allowance()
    if wall > 0 and own >= 0.5 * wall:
        sys.stderr.write("grading error: the run deadline passed while the grader itself was busy "
                         "(%.0f s of its own work in %.0f s): raise [verifier] timeout_sec or make "
                         "the grader faster\n" % (own, wall))
        raise GraderTooSlow(GRADER_TOO_SLOW)


DEADLINE_NOT_RUN = "not run: the time for candidate programs ran out (LONGHAUL_RUN_DEADLINE)"


class RunDeadlineReached(BaseException):
    """Raised by run() inside Grader.check once the time for candidate programs is spent. Not an
    Exception, so a grader's own `except Exception` cannot swallow it and keep looping."""


class SealedRunBroken(SystemExit):
    """A SystemExit, so Grader.check cannot turn a broken sandbox into a zero score."""


GENERATOR_FAILED = 87  # exit status when the grader's own hidden-case generator failed
# Set only by the generator sweep (bench/generator-sweep.ts): no program is run (run() reports a
# failure at once), so every hidden case of a seed is generated in a fraction of a second.
GENERATE_ONLY = os.environ.get("LONGHAUL_GENERATE_ONLY") == "1"


class GeneratorBroken(SystemExit):
    """A SystemExit, so Grader.check cannot turn the grader's own bug into the candidate's zero."""


def generate(fn, *args, **kwargs):
    """Calls a hidden-case generator. Its failure is a grading error (GENERATOR_FAILED), never a score:
    the candidate's program has not run yet, so a zero would blame it for the grader's bug."""
    try:
        return fn(*args, **kwargs)
    except Exception:
        traceback.print_exc(file=sys.stderr)
        sys.stderr.write("grading error: hidden-case generator %s failed on seed %d\n"
                         % (getattr(fn, "__name__", fn), SEED))
        raise GeneratorBroken(GENERATOR_FAILED)


def sealed_argv(argv, timeout=None, cwd=WORK, ro=(), out=()):
    """argv prefixed with the sealed runner (for Popen-style use); paths in argv are classified.
    In a scaled child the program's input is presented as run() presents it (kit 8), so a program
    the grader talks to itself (an episode's bot reading a config) gets the child's input too."""
    if not GENERATE_ONLY and not _grader_owned(argv):
        argv, ro = _through_channel(argv, ro)
    return _sealed_argv(argv, timeout, cwd, ro, out)


def _sealed_argv(argv, timeout=None, cwd=WORK, ro=(), out=()):
    if GENERATE_ONLY:
        return [sys.executable, "-I", "-c", "raise SystemExit(1)"]
    if not sealed_available():
        _note_unsealed()
        return _through_stream(argv, list(argv))
    pre = [SEALED_RUN, "--auto", "--cwd", cwd]
    if timeout is not None:
        pre += ["--timeout", str(timeout)]
    for p in ro:
        pre += ["--ro", p]
    for p in out:
        pre += ["--out", p]
    return _through_stream(argv, pre + ["--"] + list(argv))


def _grader_owned(argv):
    # The task's own reference programs live under /tests and need it; they are trusted code.
    return any(isinstance(a, str) and a.startswith("/tests/") for a in argv)


_CHANNEL = []


def _channel():
    """A scaled child's input channel (tests/res/channel.json, docs/scale.md), or None."""
    if not _CHANNEL:
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "res")
        found = None
        if os.path.exists(os.path.join(here, "channel.json")):
            sys.path.insert(0, here)
            import res_channel
            found = (res_channel, res_channel.load(os.path.join(here, "channel.json")))
        _CHANNEL.append(found)
    return _CHANNEL[0]


def _through_channel(argv, ro=()):
    """(argv, ro) with the program's input replaced by its presented copy, when the channel applies."""
    ch = _channel()
    if ch is None or ch[1].get("input_kind") == "stream":
        return argv, ro
    kit, decl = ch
    if hasattr(kit, "present_call"):
        # The channel kit knows where its input is (an argv index, or the first existing path
        # after the program for a program with subcommands) and what the program may read beside it.
        return kit.present_call(argv, decl, ro)
    i = decl["input_index"]
    if len(argv) <= i or argv[i - 1] != decl["program"] or not os.path.exists(argv[i]):
        return argv, ro
    import tempfile
    out = list(argv)
    out[i] = kit.present(argv[i], decl["steps"], tempfile.mkdtemp(prefix="res-channel-"))
    return out, ro


def present_steps(steps, ro=(), commands=()):
    """For a grader that runs the agent's program many times from a script of its own inside one
    sealed run (a batch runner): (steps, ro) with each step's input presented as a scaled child's
    input channel would present it in `run`, and the presented copies added to the folders the
    sealed run shows read-only. `commands` names the subcommands (the first argument after the
    program) whose calls read an input that may be presented; steps of other subcommands, which
    create or change state in place, are never touched. Outside a scaled child: unchanged."""
    ro = tuple(ro)
    ch = _channel()
    if ch is None or ch[1].get("input_kind") == "stream":
        return [list(st) for st in steps], ro
    program = ch[1]["program"]
    out = []
    for step in steps:
        step = list(step)
        at = step.index(program) + 1 if program in step else len(step)
        if commands and (at >= len(step) or step[at] not in commands):
            out.append(step)
            continue
        new, ro = _through_channel(step, ro)
        for a, b in zip(step, new):
            if a != b:
                # Inside the batch no argv reaches the sealed runner: it must show the copy itself.
                shown = os.path.dirname(b) if os.path.isfile(b) else b
                if shown not in ro:
                    ro = ro + (shown,)
        out.append(new)
    return out, ro


class _CandidateOutput:
    """A candidate program's output stream as the grader reads it (the stdout of a Popen started
    from sealed_argv): everything read through it counts as candidate output, as what run() hands
    back does, so a program that floods its answers cannot make its own failure the grader's.
    One read returns at most OUTPUT_CAP, as run() keeps at most that much a stream: a line that
    never ends cannot run the grader out of memory (the rest comes with the next read)."""

    def __init__(self, stream):
        self._stream = stream

    def _seen(self, data):
        _CANDIDATE_OUTPUT[0] += len(data)
        return data

    @staticmethod
    def _capped(size):
        return OUTPUT_CAP if size is None or size < 0 else min(size, OUTPUT_CAP)

    def readline(self, size=-1):
        return self._seen(self._stream.readline(self._capped(size)))

    def read(self, size=-1):
        return self._seen(self._stream.read(self._capped(size)))

    def __iter__(self):
        while True:
            line = self.readline()
            if not line:
                return
            yield line

    def __getattr__(self, name):
        return getattr(self._stream, name)


def candidate_output(stream):
    """Wrap the stdout of a program started from sealed_argv: read it through the result."""
    return _CandidateOutput(stream)


def _through_stream(argv, full):
    """A stream channel: the program's standard input reaches it through the channel's filter."""
    ch = _channel()
    if ch is None or ch[1].get("input_kind") != "stream" or ch[1]["program"] not in argv:
        return full
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "res")
    return [sys.executable, "-I", "-S", _filter_script(here), "stream",
            os.path.join(here, "channel.json"), "--"] + full


_FILTER = []


def _filter_script(here):
    """The channel kit as the filter runs it: compiled once per grader into a private folder of
    its own, since a script given as source is compiled again by every process (/tests is
    read-only, so Python keeps no cache beside it), and an episode's filter starts once per game
    (kit version 11). The kit's source where compiling fails."""
    if not _FILTER:
        src = os.path.join(here, "res_channel.py")
        try:
            import py_compile
            import tempfile
            folder = tempfile.mkdtemp(prefix="lh-channel-")
            _FILTER.append(py_compile.compile(src, cfile=os.path.join(folder, "res_channel.pyc"),
                                              doraise=True))
        except Exception:
            _FILTER.append(src)
    return _FILTER[0]


def run(argv, timeout=10, stdin=None, cwd=WORK, ro=(), out=()):
    """Run the agent's program sealed away from /tests, the seed and the reward files.

    Absolute paths in argv that exist are shown read-only; a missing one whose folder exists is
    an output the program may create. Never raises on the program's failure: returns
    (code, stdout, stderr). A broken sealed runner ends grading with SEALED_FAILED instead.
    """
    if GENERATE_ONLY:
        return 1, "", "not run (LONGHAUL_GENERATE_ONLY)"
    sealed = not _grader_owned(argv)
    left = time_left() if sealed else None
    # The candidate's program (not one of the task's own): what it hands back is counted.
    made = _new_paths(argv, out) if sealed else None
    if left is not None:
        if left <= 0:
            _deadline_reached()
            return -9, "", DEADLINE_NOT_RUN
        timeout = left if timeout is None else min(timeout, left)
    if sealed:
        argv, ro = _through_channel(argv, ro)
    full = _sealed_argv(argv, timeout=timeout, cwd=cwd, ro=ro, out=out) if sealed else list(argv)
    # Without the runner nothing else enforces the limit: the backstop below is the limit itself.
    backstop = 5
    if sealed and not sealed_available():
        sealed, backstop = False, 0
    try:
        p = subprocess.Popen(full, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=cwd, start_new_session=True)
    except Exception as e:  # missing program, permission denied
        if sealed:
            # The sealed runner itself could not start: the grading is broken, not the program.
            sys.stderr.write("sealed-run: could not start: %s\n" % e)
            raise SealedRunBroken(SEALED_FAILED)
        return -1, "", str(e)
    outs, errs = [], []
    workers = [threading.Thread(target=_drain, args=(p.stdout, outs), daemon=True),
               threading.Thread(target=_drain, args=(p.stderr, errs), daemon=True),
               threading.Thread(target=_feed, args=(p.stdin, stdin), daemon=True)]
    for w in workers:
        w.start()
    # The runner enforces the limit itself; this is a backstop a little later.
    if not _wait_within(p, None if timeout is None else timeout + backstop):
        _kill_group(p)
        if made is not None:
            _count_output(outs, errs, made)
        _deadline_reached_if_spent(left)
        return -9, "", "timeout"
    for w in workers:
        w.join(5)
    if made is not None:
        _count_output(outs, errs, made)
    o, e = _text(outs), _text(errs)
    if sealed and p.returncode == 124:
        _deadline_reached_if_spent(left)
        return -9, o, "timeout"
    if sealed and p.returncode == 125 and "sealed-run:" in e:
        sys.stderr.write(e)
        raise SealedRunBroken(SEALED_FAILED)
    return p.returncode, o, e


def _new_paths(argv, out):
    """The paths a call may write: its declared outputs and the absolute argv paths not there yet."""
    paths = [a for a in argv if isinstance(a, str) and a.startswith("/") and not os.path.lexists(a)]
    return tuple(paths) + tuple(p for p in out if p not in paths)


# Files counted per call at most: past that the walk itself would cost the grader its time.
COUNT_FILES_CAP = 100000


def _count_output(outs, errs, made):
    size = sum(len(x) for x in outs[:1] + errs[:1])
    files = 0
    for top in made:
        if not os.path.lexists(top):
            continue
        for root, dirs, names in os.walk(top) if os.path.isdir(top) else [("", [], [top])]:
            for n in names:
                files += 1
                try:
                    size += os.lstat(os.path.join(root, n)).st_size
                except OSError:
                    pass
            if files > COUNT_FILES_CAP:
                break
    _CANDIDATE_OUTPUT[0] += size
    _CANDIDATE_OUTPUT[1] += files


def _deadline_reached():
    """Inside a subtask: stop it (Grader.check scores it 0). Outside one: the caller gets a timeout."""
    _blame_deadline()
    _DEADLINE_HIT[0] = True
    if _CURRENT[0] is not None:
        raise RunDeadlineReached()


def _deadline_reached_if_spent(left):
    if left is not None and time_left() <= 0:
        _deadline_reached()


_DEADLINE_HIT = [False]


def _wait_within(p, limit):
    """Wait for p to exit; False when `limit` seconds passed first (its process group is then
    killed). A blocking wait with a timer beside it: Popen.wait(timeout=) polls with sleeps of up
    to 50 ms, which every run() call paid on top of the program's own time (kit version 10)."""
    if limit is None:
        p.wait()
        return True
    expired = []

    def expire():
        expired.append(True)
        try:
            os.killpg(p.pid, 9)
        except OSError:
            try:
                p.kill()
            except OSError:
                pass

    timer = threading.Timer(limit, expire)
    timer.daemon = True
    timer.start()
    try:
        p.wait()
    finally:
        timer.cancel()
    return not expired


def _kill_group(p):
    try:
        os.killpg(p.pid, 9)
    except OSError:
        p.kill()
    p.wait()


# Output kept per stream: a program that floods its output cannot run the grader out of memory.
OUTPUT_CAP = 32 << 20


def _drain(stream, sink):
    kept, n = [], 0
    try:
        while True:
            chunk = stream.read(1 << 16)
            if not chunk:
                break
            if n < OUTPUT_CAP:
                kept.append(chunk[:OUTPUT_CAP - n])
                n += len(kept[-1])
    except Exception:  # the pipe closed under us: keep what was read
        pass
    sink.append(b"".join(kept))


def _feed(stream, data):
    try:
        if data:
            stream.write(data.encode() if isinstance(data, str) else data)
    except Exception:  # the program exited without reading its input
        pass
    finally:
        try:
            stream.close()
        except Exception:
            pass


def _text(parts):
    # As text mode would give it: invalid UTF-8 replaced, line ends made "\n".
    raw = parts[0] if parts else b""
    return raw.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")


class Grader:
    def __init__(self):
        self.ids, self.weights = rubric_ids()
        self.scores = {i: 0.0 for i in self.ids}
        self.msgs = {i: "not run" for i in self.ids}
        self.h = hashlib.sha256()
        self.failed = False
        self.lost = 0.0  # weight lost so far: R can be at most 1 - lost / total weight

    def digest(self, data):
        self.h.update(data if isinstance(data, bytes) else str(data).encode())

    def check(self, sid, fn):
        if STOP_AT_FIRST_FAILURE and self.failed:
            self.msgs[sid] = "not run: an earlier subtask is below 1 (LONGHAUL_STOP_AT_FIRST_FAILURE)"
            return
        if STOP_BELOW > 0 and 1 - self.lost / self._total() < STOP_BELOW:
            self.msgs[sid] = "not run: R < %g is already certain (LONGHAUL_STOP_BELOW)" % STOP_BELOW
            return
        left = time_left()
        if left is not None and left <= 0:
            _deadline_reached()  # outside any subtask here: blames, records, does not raise
            self.msgs[sid] = DEADLINE_NOT_RUN
            self.lost += self.weights.get(sid, 1)
            self.failed = True
            return
        _CURRENT[0] = sid
        try:
            r = fn()
            score, msg = r if isinstance(r, tuple) else (r, "")
            # Rounded so weighted sums like 0.7 + 0.2 + 0.1 give exactly 1.0.
            score = round(max(0.0, min(1.0, float(score))), 9)
        except RunDeadlineReached:
            score, msg = 0.0, "stopped: the time for candidate programs ran out during this subtask"
        except Exception as e:
            score, msg = 0.0, "error: %s: %s" % (type(e).__name__, str(e)[:300])
            traceback.print_exc(file=sys.stderr)
        _CURRENT[0] = None
        if sid not in self.scores:
            print("warning: %s not in rubric" % sid, file=sys.stderr)
        self.scores[sid] = score
        self.msgs[sid] = str(msg)[:2000]
        if score < 1 and self.weights.get(sid, 1) > 0:
            self.failed = True
        self.lost += self.weights.get(sid, 1) * (1 - score)

    def _total(self):
        return sum(self.weights.get(i, 1) for i in self.ids) or 1

    def finish(self):
        os.makedirs(OUT, exist_ok=True)
        tw = sum(self.weights.get(i, 1) for i in self.ids) or 1
        out = dict(self.scores)
        out["reward"] = sum(self.weights.get(i, 1) * self.scores[i] for i in self.ids) / tw
        with open(os.path.join(OUT, "reward.json"), "w") as f:
            json.dump(out, f)
        det = {"stress_digest": self.h.hexdigest(), "subtasks": {i: {"message": self.msgs[i]} for i in self.ids}}
        if _DEADLINE_HIT[0]:
            # The candidate's programs used up the verifier's time: said once, for reports.
            det["run_deadline_reached"] = True
        if SEED_SOURCE == "drawn":
            # No seed was given: the drawn one is what repeats this run (LONGHAUL_SEED=<seed>).
            det["seed"] = SEED
            det["seed_source"] = "drawn"
        if _UNSEALED:
            det["sealed"] = False
            for i in self.ids:
                if i in _UNSEALED:
                    det["subtasks"][i]["sealed"] = False
        with open(os.path.join(OUT, "reward-details.json"), "w") as f:
            json.dump(det, f, indent=1)
        print(json.dumps(out))


# ---------------------------------------------------------------------------------------------
# Scoring helpers
# ---------------------------------------------------------------------------------------------

DECAYS = ("linear", "exponential", "relative")


def clamp01(x):
    """x limited to [0, 1]; NaN and None give 0."""
    if x is None or x != x:
        return 0.0
    return max(0.0, min(1.0, float(x)))


def relative_error(got, expected):
    """|got - expected| / max(|expected|, 1e-12)."""
    return abs(got - expected) / max(abs(expected), 1e-12)


def score_continuous(error, tolerance, cutoff, decay="linear", rate=5.0):
    """1 when |error| <= tolerance, 0 at or beyond cutoff, a decay curve in between.

    linear: 1 - x; exponential: (exp(-rate x) - exp(-rate)) / (1 - exp(-rate)); relative:
    1 - ln(e / tolerance) / ln(cutoff / tolerance), with x = (e - tolerance) / (cutoff - tolerance).
    """
    if isinstance(error, bool) or not isinstance(error, (int, float)) or error != error:
        raise TypeError("error must be a number, got %r" % (error,))
    if not (tolerance >= 0):
        raise TypeError("tolerance must be >= 0, got %r" % (tolerance,))
    if not (cutoff > tolerance):
        raise TypeError("cutoff must be > tolerance (%r), got %r" % (tolerance, cutoff))
    if decay not in DECAYS:
        raise TypeError("decay must be one of %s, got %r" % (", ".join(DECAYS), decay))
    e = abs(error)
    if e <= tolerance:
        return 1.0
    if e >= cutoff:
        return 0.0
    x = (e - tolerance) / (cutoff - tolerance)
    if decay == "linear":
        return clamp01(1 - x)
    if decay == "exponential":
        if not (rate > 0):
            raise TypeError("rate must be > 0, got %r" % (rate,))
        return clamp01((math.exp(-rate * x) - math.exp(-rate)) / (1 - math.exp(-rate)))
    if not (tolerance > 0):
        raise TypeError("relative decay needs tolerance > 0")
    return clamp01(1 - math.log(e / tolerance) / math.log(cutoff / tolerance))


# ---------------------------------------------------------------------------------------------
# Seeded randomness: the same algorithm as longhaul's host-side Rng (SplitMix32 to expand the
# seed, then xoshiro128**), so equal seeds give equal streams on the host and in the verifier.
# ---------------------------------------------------------------------------------------------

_M32 = 0xFFFFFFFF


def hash_string(s):
    """FNV-1a over UTF-16 code units: a stable 32-bit hash for string seeds."""
    h = 0x811C9DC5
    raw = s.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(raw), 2):
        h ^= raw[i] | (raw[i + 1] << 8)
        h = (h * 0x01000193) & _M32
    return h


def _rotl(x, k):
    return ((x << k) | (x >> (32 - k))) & _M32


class Rng:
    """A seeded generator: Rng(seed) with an int or a string seed; same seed, same stream."""

    def __init__(self, seed):
        if isinstance(seed, str):
            x = hash_string(seed)
        else:
            x = int(seed) & _M32
        state = []
        for _ in range(4):
            x = (x + 0x9E3779B9) & _M32
            z = x
            z = ((z ^ (z >> 16)) * 0x85EBCA6B) & _M32
            z = ((z ^ (z >> 13)) * 0xC2B2AE35) & _M32
            state.append((z ^ (z >> 16)) & _M32)
        if not any(state):
            state[0] = 1
        self.s = state

    def next_u32(self):
        """A uniformly random unsigned 32-bit integer."""
        s0, s1, s2, s3 = self.s
        result = (_rotl((s1 * 5) & _M32, 7) * 9) & _M32
        t = (s1 << 9) & _M32
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 11)
        self.s = [s0, s1, s2, s3]
        return result

    def next(self):
        """A float in [0, 1)."""
        return self.next_u32() / 4294967296.0

    def int(self, lo, hi):
        """An integer in [lo, hi], both inclusive."""
        if hi < lo:
            raise ValueError("int(%d, %d): hi < lo" % (lo, hi))
        return lo + math.floor(self.next() * (hi - lo + 1))

    def pick(self, items):
        items = list(items)
        if not items:
            raise ValueError("pick from an empty list")
        return items[self.int(0, len(items) - 1)]

    def shuffle(self, items):
        """A shuffled copy (Fisher-Yates); the input is left alone."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.int(0, i)
            out[i], out[j] = out[j], out[i]
        return out

    def fork(self, label):
        """A child generator whose stream is independent of how much this one is used later."""
        return Rng("%d:%d:%d:%d:%s" % (self.s[0], self.s[1], self.s[2], self.s[3], label))


def rng_for(label, seed=None):
    """The generator for one subtask (or any label): derived from the seed and the label only,
    so adding or reordering checks never changes another check's cases."""
    return Rng(SEED if seed is None else seed).fork(label)



# ---------------------------------------------------------------------------------------------
# random.Random draws at speed (kit version 11). Generators written on the standard random module
# spend most of their time in randint's three Python calls per draw (an image's noise is a draw a
# pixel). These give the same numbers and leave the generator in the same state, so hidden cases
# do not change; they rely on how CPython draws, which is checked once per process against this
# interpreter's random, and where it does not hold they call random's own methods.
# ---------------------------------------------------------------------------------------------

_DRAWS_AGREE = []


def _draws_agree():
    """True when randint_of and randbelow_many give random's own numbers and stream use here."""
    if not _DRAWS_AGREE:
        import random
        ok = True
        for n in (1, 2, 5, 17, 131, 255, 256, 257, 1000, 65536, 2 ** 32 - 5):
            fast, slow = random.Random("lh draws %d" % n), random.Random("lh draws %d" % n)
            randint = _randint_fast(fast)
            ok = ok and [randint(-3, n - 4) for _ in range(50)] == [slow.randint(-3, n - 4) for _ in range(50)]
            seq = range(min(n, 1000))
            ok = ok and [seq[randint(0, len(seq) - 1)] for _ in range(20)] == [slow.choice(seq) for _ in range(20)]
            for count in (0, 1, 100):
                ok = ok and list(_randbelow_many_fast(fast, n, count)) == [slow.randrange(n) for _ in range(count)]
            ok = ok and fast.getstate() == slow.getstate()
        _DRAWS_AGREE.append(ok)
    return _DRAWS_AGREE[0]


def _randint_fast(rng):
    # CPython: randint(a, b) is a + _randbelow(n), n = b - a + 1, which draws getrandbits(k),
    # k = n.bit_length(), again while the value is >= n.
    getrandbits = rng.getrandbits

    def randint(a, b):
        n = b - a + 1
        if n <= 0:
            return rng.randint(a, b)  # random's own error
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return a + r
    return randint


def _randbelow_many_fast(rng, n, count):
    # For k = n.bit_length() <= 32, getrandbits(k) is the top k bits of one 32-bit output, and
    # getrandbits(32 * m) is m outputs, the first in the lowest bits. Every draw takes at least one
    # output, so taking as many outputs as draws are still missing never takes one too many.
    shift = 32 - n.bit_length()
    if n < 256:
        # The top byte of each output, mapped to its value (translate drops rejected bytes first).
        drop = 8 - n.bit_length()
        value = bytes(b >> drop for b in range(256))
        reject = bytes(b for b in range(256) if b >> drop >= n)
        out = bytearray()
        while len(out) < count:
            m = count - len(out)
            out += rng.getrandbits(32 * m).to_bytes(4 * m, "little")[3::4].translate(value, reject)
        return bytes(out)
    out = []
    while len(out) < count:
        m = count - len(out)
        words = struct.unpack("<%dI" % m, rng.getrandbits(32 * m).to_bytes(4 * m, "little"))
        out += [r for r in [w >> shift for w in words] if r < n]
    return out


def fast_draws_agree():
    """True when this interpreter's random draws as randint_of, choice_of and randbelow_many
    assume (CPython's getrandbits rejection loop): a generator that inlines that loop itself in a
    hot path checks this once and refuses to run otherwise."""
    return _draws_agree()


def randint_of(rng):
    """rng.randint (rng a random.Random) as a function with the same numbers and the same use of
    rng's stream, about three times as fast."""
    return _randint_fast(rng) if _draws_agree() else rng.randint


def choice_of(rng):
    """rng.choice (rng a random.Random) as a function with the same picks and the same use of
    rng's stream: CPython's choice(seq) is seq[_randbelow(len(seq))]."""
    if not _draws_agree():
        return rng.choice
    randint = _randint_fast(rng)

    def choice(seq):
        if not len(seq):
            return rng.choice(seq)  # random's own error
        return seq[randint(0, len(seq) - 1)]
    return choice


def randbelow_many(rng, n, count):
    """[rng.randrange(n) for _ in range(count)] (rng a random.Random, 0 < n <= 2**32): the same
    numbers and the same use of rng's stream, drawn in bulk; bytes when n < 256, else a list."""
    if 0 < n < 2 ** 32 and _draws_agree():
        return _randbelow_many_fast(rng, n, count)
    values = [rng.randrange(n) for _ in range(count)]
    return bytes(values) if 0 < n < 256 else values


# ---------------------------------------------------------------------------------------------
# Stress cases: pure, seeded perturbations. Every function that changes data takes an Rng and
# returns a report enough to check or undo the change. Records are lists of dicts whose values
# are str, int, float, bool or None.
# ---------------------------------------------------------------------------------------------


class StressError(ValueError):
    """Bad input to a stress helper."""


def to_rng(seed_or_rng):
    return seed_or_rng if isinstance(seed_or_rng, Rng) else Rng(seed_or_rng)


def _to_bytes(data):
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


def sha256_hex(data):
    return hashlib.sha256(_to_bytes(data)).hexdigest()


def hex_token(rng, chars=6):
    """A short lowercase hex token (for file and folder names)."""
    s = ""
    while len(s) < chars:
        s += "%08x" % rng.next_u32()
    return s[:chars]


def sample_indices(rng, n, count):
    """count distinct indices from [0, n), ascending."""
    return sorted(rng.shuffle(range(n))[:max(0, min(n, count))])


def _base36(n):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# --- records: CSV, TSV, JSON, JSONL ----------------------------------------------------------

RECORD_FORMATS = ("csv", "tsv", "json", "jsonl")
_NUMBER_RE = re.compile(r"^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$")
_INT_RE = re.compile(r"^-?\d+$")


def _needs_quotes(cell, delimiter):
    return cell == "" or delimiter in cell or re.search(r'["\r\n]', cell) is not None


def _quote(cell):
    return '"' + cell.replace('"', '""') + '"'


def to_csv(rows, delimiter=",", newline="\n"):
    """Raw cells (str or None) to CSV: None is an unquoted empty field, "" a quoted one."""
    out = []
    for row in rows:
        if not row:
            raise StressError("to_csv: a row needs at least one cell")
        cells = ["" if c is None else (_quote(c) if _needs_quotes(c, delimiter) else c) for c in row]
        out.append(delimiter.join(cells) + newline)
    return "".join(out)


def _parse_raw(text, delimiter):
    rows, row, i, n = [], [], 0, len(text)
    while i < n:
        value, quoted = [], False
        if text[i] == '"':
            quoted = True
            i += 1
            while True:
                if i >= n:
                    raise StressError("parse_csv: unterminated quoted field")
                if text[i] == '"':
                    if i + 1 < n and text[i + 1] == '"':
                        value.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                value.append(text[i])
                i += 1
        # Unquoted text (or stray text after a closing quote) runs to the delimiter or the line end.
        while i < n and not text.startswith(delimiter, i) and text[i] != "\n" and text[i] != "\r":
            value.append(text[i])
            i += 1
        row.append(("".join(value), quoted))
        if i >= n:
            break
        if text.startswith(delimiter, i):
            i += len(delimiter)
            if i >= n:
                row.append(("", False))
            continue
        i += 2 if text[i] == "\r" and text[i + 1:i + 2] == "\n" else 1
        rows.append(row)
        row = []
    if row:
        rows.append(row)
    return rows


def parse_csv(text, delimiter=","):
    """CSV to raw cells: an unquoted empty field is None, a quoted one ""."""
    return [[None if v == "" and not q else v for v, q in r] for r in _parse_raw(text, delimiter)]


def _num_text(v):
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise StressError("records_to_csv: non-finite number %r" % v)
        if v.is_integer() and abs(v) < 1e16:
            return str(int(v))
        return repr(v)
    return str(v)


def _cell_to_csv(cell, delimiter):
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if _is_number(cell):
        return _num_text(cell)
    ambiguous = _NUMBER_RE.match(cell) is not None or cell in ("true", "false")
    return _quote(cell) if ambiguous or _needs_quotes(cell, delimiter) else cell


def _infer_cell(value, quoted):
    if quoted:
        return value
    if value == "":
        return None
    if value == "true":
        return True
    if value == "false":
        return False
    if _NUMBER_RE.match(value):
        return int(value) if _INT_RE.match(value) else float(value)
    return value


def columns_of(records):
    """Columns in first-seen order over all records."""
    seen = {}
    for r in records:
        for k in r:
            seen.setdefault(k, None)
    return list(seen)


def records_to_csv(records, delimiter=",", newline="\n", columns=None):
    """Strings that would read back as a number, boolean or null are quoted; absent keys are empty."""
    columns = columns_of(records) if columns is None else columns
    if not columns:
        return ""
    header = delimiter.join(_quote(c) if _needs_quotes(c, delimiter) else c for c in columns)
    lines = [delimiter.join(_cell_to_csv(r.get(c), delimiter) for c in columns) for r in records]
    return "".join(l + newline for l in [header] + lines)


def csv_to_records(text, delimiter=","):
    rows = _parse_raw(text, delimiter)
    if not rows:
        return []
    columns = [v for v, _ in rows[0]]
    out = []
    for i, r in enumerate(rows[1:]):
        if len(r) != len(columns):
            raise StressError("csv row %d: %d fields, header has %d" % (i + 2, len(r), len(columns)))
        out.append({c: _infer_cell(v, q) for c, (v, q) in zip(columns, r)})
    return out


def _check_row(value, where):
    if not isinstance(value, dict):
        raise StressError("%s: expected an object" % where)
    for k, v in value.items():
        if not (v is None or isinstance(v, (str, int, float, bool))):
            raise StressError("%s: field %s: expected a string, number, boolean or null" % (where, k))
    return value


def records_to_json(records, indent=None):
    return json.dumps(records, indent=indent, ensure_ascii=False, allow_nan=False,
                      separators=None if indent else (",", ":")) + "\n"


def json_to_records(text):
    parsed = json.loads(text)
    if not isinstance(parsed, list):
        raise StressError("json: expected an array of records")
    return [_check_row(r, "json record %d" % i) for i, r in enumerate(parsed)]


def records_to_jsonl(records):
    return "".join(json.dumps(r, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"
                   for r in records)


def jsonl_to_records(text):
    """Blank lines are skipped; any other line that is not a JSON object is an error naming it."""
    out = []
    for i, line in enumerate(re.split(r"\r?\n", text)):
        if line.strip() == "":
            continue
        try:
            parsed = json.loads(line)
        except ValueError:
            raise StressError("jsonl line %d: not JSON" % (i + 1))
        out.append(_check_row(parsed, "jsonl line %d" % (i + 1)))
    return out


def serialize_records(records, fmt):
    if fmt == "csv":
        return records_to_csv(records)
    if fmt == "tsv":
        return records_to_csv(records, delimiter="\t")
    if fmt == "json":
        return records_to_json(records, 2)
    if fmt == "jsonl":
        return records_to_jsonl(records)
    raise StressError("unknown record format %r" % (fmt,))


def parse_records(text, fmt):
    if fmt == "csv":
        return csv_to_records(text)
    if fmt == "tsv":
        return csv_to_records(text, delimiter="\t")
    if fmt == "json":
        return json_to_records(text)
    if fmt == "jsonl":
        return jsonl_to_records(text)
    raise StressError("unknown record format %r" % (fmt,))


# --- fields: key styles and renaming ---------------------------------------------------------

KEY_STYLES = ("camel", "pascal", "snake", "kebab", "upper", "dotted", "spaced")


def split_words(key):
    """Words of a key, lowercased: "userID_v2" -> [user, id, v2]; "Max-Temp C" -> [max, temp, c]."""
    cased = key
    if re.search(r"[a-z]", key):
        cased = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", key)
        cased = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", cased)
    return [w.lower() for w in re.split(r"[\s_\-.]+", cased) if w]


def _cap(w):
    return w[:1].upper() + w[1:]


def style_key(key, style):
    """camel fooBar, pascal FooBar, snake foo_bar, kebab foo-bar, upper FOO_BAR, dotted foo.bar, spaced Foo Bar."""
    words = split_words(key)
    if not words:
        return key
    if style == "camel":
        return words[0] + "".join(_cap(w) for w in words[1:])
    if style == "pascal":
        return "".join(_cap(w) for w in words)
    if style == "snake":
        return "_".join(words)
    if style == "kebab":
        return "-".join(words)
    if style == "upper":
        return "_".join(words).upper()
    if style == "dotted":
        return ".".join(words)
    if style == "spaced":
        return " ".join(_cap(w) for w in words)
    raise StressError("unknown key style %r" % (style,))


def normalize_key(key):
    """A style-free form: every style of a key normalises to the same string."""
    return "_".join(split_words(key))


def rename_fields(rng, rows, style=None, aliases=None, alias_rate=0.5):
    """Rename every key consistently across rows. Returns (rows, mapping new -> original)."""
    seen = columns_of(rows)
    seen_set = set(seen)
    used, forward = set(), {}
    for key in seen:
        options = (aliases or {}).get(key, [])
        st = style if style is not None else rng.pick(KEY_STYLES)
        candidates = []
        if options and rng.next() < alias_rate:
            candidates.append(style_key(rng.pick(options), st))
        candidates += [style_key(key, st), key]
        chosen = next((c for c in candidates
                       if c and c not in used and (c not in seen_set or c == key)), None)
        n = 2
        while chosen is None:
            c = "%s_%d" % (key, n)
            if c not in used and c not in seen_set:
                chosen = c
            n += 1
        used.add(chosen)
        forward[key] = chosen
    mapping = {to: frm for frm, to in forward.items()}
    return [{forward.get(k, k): v for k, v in r.items()} for r in rows], mapping


def restore_fields(rows, mapping):
    """Undo rename_fields with its mapping."""
    out = []
    for r in rows:
        o = {}
        for k, v in r.items():
            if k not in mapping:
                raise StressError("restore_fields: key %s is not in the mapping" % k)
            o[mapping[k]] = v
        out.append(o)
    return out


# --- missing values --------------------------------------------------------------------------

MISSING_MARKERS = ("null", "empty", "NA", "absent")


def inject_missing(rng, rows, rate, markers=MISSING_MARKERS, fields=None):
    """Remove exactly round(rate x non-null cells); returns (rows, removed), each removed entry
    {row, field, original, marker}. Markers: null, empty (""), NA, absent (key deleted)."""
    if not (0 <= rate <= 1):
        raise StressError("inject_missing: rate must be in [0, 1]")
    if not markers:
        raise StressError("inject_missing: markers is empty")
    eligible = [(i, f) for i, r in enumerate(rows) for f, v in r.items()
                if v is not None and (fields is None or f in fields)]
    picked = sample_indices(rng, len(eligible), _round_half_up(rate * len(eligible)))
    out = [dict(r) for r in rows]
    removed = []
    for i in picked:
        row, field = eligible[i]
        marker = rng.pick(markers)
        removed.append({"row": row, "field": field, "original": out[row][field], "marker": marker})
        if marker == "absent":
            del out[row][field]
        else:
            out[row][field] = None if marker == "null" else "" if marker == "empty" else "NA"
    return out, removed


def _round_half_up(x):
    return int(math.floor(x + 0.5))


def restore_missing(rows, removed):
    """Put back what inject_missing removed (values; key order is not restored)."""
    out = [dict(r) for r in rows]
    for c in removed:
        if not 0 <= c["row"] < len(out):
            raise StressError("restore_missing: row %d does not exist" % c["row"])
        out[c["row"]][c["field"]] = c["original"]
    return out


def is_missing(value):
    """The convention graders use: None, "", NA, N/A, null, NaN (case-insensitive)."""
    if value is None:
        return True
    if not isinstance(value, str):
        return False
    return value.strip().lower() in ("", "na", "n/a", "null", "nan")


# --- noise: jitter, duplicates, junk lines ---------------------------------------------------

def jitter_numbers(rng, rows, bound, mode="absolute", fields=None):
    """Uniform noise in [-bound, bound] (times |value| when mode is relative) on numeric cells.
    Returns (rows, changes), each change {row, field, from, to}."""
    if not (bound >= 0):
        raise StressError("jitter_numbers: bound must be >= 0")
    relative = mode == "relative"
    changes, out = [], []
    for i, r in enumerate(rows):
        o = {}
        for f, v in r.items():
            if not _is_number(v) or (fields is not None and f not in fields):
                o[f] = v
                continue
            limit = bound * abs(v) if relative else bound
            shifted = v + (rng.next() * 2 - 1) * limit
            # Rounding can overshoot when the bound is below one ulp of v; then keep v.
            to = shifted if abs(shifted - v) <= limit else v
            changes.append({"row": i, "field": f, "from": v, "to": to})
            o[f] = to
        out.append(o)
    return out, changes


def duplicate_rows(rng, rows, count):
    """Insert count copies of random rows at random places. Returns (rows, duplicates), each
    duplicate {index (in the output), of (the input row it copies)}."""
    if not rows or count <= 0:
        return [dict(r) for r in rows], []
    entries = [(r, i, False) for i, r in enumerate(rows)]
    for _ in range(count):
        of = rng.int(0, len(rows) - 1)
        at = rng.int(0, len(entries))
        entries.insert(at, (rows[of], of, True))
    dups = [{"index": i, "of": of} for i, (_, of, dup) in enumerate(entries) if dup]
    return [dict(r) for r, _, _ in entries], dups


def remove_duplicates(rows, duplicates):
    drop = {d["index"] for d in duplicates}
    return [r for i, r in enumerate(rows) if i not in drop]


JUNK_KINDS = ("comment", "blank", "garbage")
_GARBAGE = ("~~~ %s ~~~", "<<<CORRUPT %s>>>", "%s%s%s", "ERROR: record %s unreadable", "\\x%s")


def _junk_text(rng, kind, prefix):
    tag = _base36(rng.next_u32())
    if kind == "blank":
        return rng.pick(["", " ", "\t"])
    if kind == "comment":
        return "%s %s %s" % (prefix, rng.pick(["generated", "note", "exported at", "checksum"]), tag)
    return rng.pick(_GARBAGE).replace("%s", tag)


def inject_junk_lines(rng, text, count, kinds=JUNK_KINDS, comment_prefix="#", keep_first=0):
    """Insert junk lines between lines (never among the first keep_first lines, never after the
    final newline). Returns (text, inserted), each {line, kind, text}; line indexes
    text.split("\\n") of the output, so deleting them gives the input back exactly."""
    tagged = [(l, None) for l in text.split("\n")]
    content = len(tagged) - 1 if text.endswith("\n") else len(tagged)
    keep = min(keep_first, content)
    last = content
    for _ in range(count):
        kind = rng.pick(kinds)
        at = rng.int(keep, last)
        tagged.insert(at, (_junk_text(rng, kind, comment_prefix), kind))
        last += 1
    inserted = [{"line": i, "kind": k, "text": t} for i, (t, k) in enumerate(tagged) if k is not None]
    return "\n".join(t for t, _ in tagged), inserted


def remove_junk_lines(text, inserted):
    drop = {j["line"] for j in inserted}
    return "\n".join(l for i, l in enumerate(text.split("\n")) if i not in drop)


# --- reorder ---------------------------------------------------------------------------------

def shuffle_with_order(rng, items):
    """Returns (items, order) where order[i] is the input index of output item i."""
    items = list(items)
    order = rng.shuffle(range(len(items)))
    return [items[i] for i in order], order


def unshuffle(items, order):
    out = [None] * len(items)
    for i, frm in enumerate(order):
        out[frm] = items[i]
    return out


def shuffle_keys(rng, rows):
    """Same keys and values per record, in a seed-chosen key order."""
    return [dict(rng.shuffle(list(r.items()))) for r in rows]


def shuffle_files(rng, files):
    """The same file tree (path -> bytes) with its entries in a seed-chosen order."""
    return dict(rng.shuffle(list(files.items())))


# --- units -----------------------------------------------------------------------------------

QUANTITIES = ("length", "mass", "temperature", "energy", "time")
_LINEAR = {
    "length": {"m": 1, "km": 1000, "cm": 0.01, "mm": 0.001, "um": 1e-6, "in": 0.0254, "ft": 0.3048,
               "yd": 0.9144, "mi": 1609.344, "nmi": 1852},
    "mass": {"kg": 1, "g": 0.001, "mg": 1e-6, "t": 1000, "lb": 0.45359237, "oz": 0.45359237 / 16},
    "energy": {"J": 1, "kJ": 1000, "MJ": 1e6, "cal": 4.184, "kcal": 4184, "Wh": 3600, "kWh": 3.6e6,
               "eV": 1.602176634e-19, "BTU": 1055.05585262},
    "time": {"s": 1, "ms": 0.001, "us": 1e-6, "ns": 1e-9, "min": 60, "h": 3600, "d": 86400},
}
_TEMPERATURE = ("K", "C", "F", "R")


def units_of(quantity):
    return list(_TEMPERATURE) if quantity == "temperature" else list(_LINEAR[quantity])


def quantity_of(unit):
    for q in QUANTITIES:
        if unit in units_of(q):
            return q
    raise StressError("unknown unit %s" % unit)


def _to_kelvin(v, unit):
    return {"K": lambda: v, "C": lambda: v + 273.15, "F": lambda: (v + 459.67) * 5 / 9,
            "R": lambda: v * 5 / 9}[unit]()


def _from_kelvin(k, unit):
    return {"K": lambda: k, "C": lambda: k - 273.15, "F": lambda: k * 9 / 5 - 459.67,
            "R": lambda: k * 9 / 5}[unit]()


def convert_unit(value, frm, to):
    """Convert between units of one quantity; round trips agree to 1e-9 relative."""
    q = quantity_of(frm)
    if quantity_of(to) != q:
        raise StressError("cannot convert %s (%s) to %s (%s)" % (frm, q, to, quantity_of(to)))
    if frm == to:
        return value
    if q == "temperature":
        if frm == "C" and to == "F":
            return value * 9 / 5 + 32
        if frm == "F" and to == "C":
            return (value - 32) * 5 / 9
        return _from_kelvin(_to_kelvin(value, frm), to)
    return value * _LINEAR[q][frm] / _LINEAR[q][to]


def change_units(rows, field, frm, to, label):
    """Convert one numeric column and state the unit: label "suffix" renames it <field>_<unit>,
    "column" adds a <field>_unit column. Returns (rows, change)."""
    new_field = "%s_%s" % (field, to) if label == "suffix" else field
    out = []
    for r in rows:
        o = {}
        for k, v in r.items():
            if k != field:
                o[k] = v
                continue
            converted = convert_unit(v, frm, to) if _is_number(v) else v
            if label == "suffix":
                o[new_field] = converted
            else:
                o[k] = converted
                o[k + "_unit"] = to
        out.append(o)
    return out, {"field": field, "newField": new_field, "from": frm, "to": to, "label": label}


# --- timestamps ------------------------------------------------------------------------------

TIMESTAMP_FORMATS = ("iso", "iso-seconds", "rfc2822", "epoch-s", "epoch-ms", "local-minute", "local-seconds")
# Milliseconds a format keeps: parse(format(t)) is t rounded down to a multiple of this.
FORMAT_PRECISION_MS = {"iso": 1, "iso-seconds": 1000, "rfc2822": 1000, "epoch-s": 1000, "epoch-ms": 1,
                       "local-minute": 60000, "local-seconds": 1000}
_DAYS = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_EPOCH = datetime.datetime(1970, 1, 1)


def _offset_text(minutes, sep):
    a = abs(minutes)
    return "%s%02d%s%02d" % ("-" if minutes < 0 else "+", a // 60, sep, a % 60)


def zone_name(offset_minutes):
    """Zones are fixed UTC offsets in minutes, named "UTC" or "+05:30"."""
    return "UTC" if offset_minutes == 0 else _offset_text(offset_minutes, ":")


def parse_zone(name):
    t = name.strip()
    if re.match(r"^(UTC|GMT|Z)$", t, re.I):
        return 0
    m = re.match(r"^(?:UTC|GMT)?([+-])(\d{2}):?(\d{2})$", t, re.I)
    if m is None:
        raise StressError("unknown zone %s (use UTC or +hh:mm)" % name)
    return (-1 if m.group(1) == "-" else 1) * (int(m.group(2)) * 60 + int(m.group(3)))


def format_instant(ms, fmt, offset_minutes=0):
    """Format an instant (integer ms since the epoch, years 1000-9999) in a format and offset:
    iso 2026-03-01T14:05:09.123+05:30, iso-seconds, rfc2822 Sun, 01 Mar 2026 14:05:09 +0530,
    epoch-s, epoch-ms, local-minute 2026/03/01 14:05, local-seconds 2026-03-01 14:05:09."""
    if isinstance(ms, bool) or not isinstance(ms, int):
        raise StressError("format_instant: %r is not an integer millisecond" % (ms,))
    if fmt == "epoch-ms":
        return str(ms)
    if fmt == "epoch-s":
        return str(ms // 1000)
    d = _EPOCH + datetime.timedelta(milliseconds=ms + offset_minutes * 60000)
    date = "%04d-%02d-%02d" % (d.year, d.month, d.day)
    hm = "%02d:%02d" % (d.hour, d.minute)
    hms = "%s:%02d" % (hm, d.second)
    zone = "Z" if offset_minutes == 0 else _offset_text(offset_minutes, ":")
    if fmt == "iso":
        return "%sT%s.%03d%s" % (date, hms, d.microsecond // 1000, zone)
    if fmt == "iso-seconds":
        return "%sT%s%s" % (date, hms, zone)
    if fmt == "rfc2822":
        return "%s, %02d %s %04d %s %s" % (_DAYS[(d.weekday() + 1) % 7], d.day, _MONTHS[d.month - 1],
                                           d.year, hms, _offset_text(offset_minutes, ""))
    if fmt == "local-minute":
        return "%s %s" % (date.replace("-", "/"), hm)
    if fmt == "local-seconds":
        return "%s %s" % (date, hms)
    raise StressError("unknown timestamp format %r" % (fmt,))


def _from_parts(y, mo, d, h, mi, s, ms, offset):
    try:
        t = datetime.datetime(y, mo, d, h, mi, s, ms * 1000)
    except ValueError:
        raise StressError("invalid date/time %d-%d-%d %d:%d:%d" % (y, mo, d, h, mi, s))
    return (t - _EPOCH) // datetime.timedelta(milliseconds=1) - offset * 60000


_ISO_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$",
                     re.I)
_RFC_RE = re.compile(r"^(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?"
                     r"\s+([+-]\d{4}|UT|UTC|GMT|Z)$")
_SLASH_RE = re.compile(r"^(\d{4})/(\d{2})/(\d{2})\s+(\d{2}):(\d{2})(?::(\d{2}))?$")


def parse_instant(text, fmt=None, zone_offset_minutes=0):
    """Parse any format above back to ms since the epoch. Text without an offset is read in
    zone_offset_minutes. Bare integers are epoch seconds unless fmt is "epoch-ms" or |n| >= 1e11."""
    t = text.strip()
    if re.match(r"^-?\d+$", t):
        n = int(t)
        as_ms = fmt == "epoch-ms" or (fmt != "epoch-s" and abs(n) >= 1e11)
        return n if as_ms else n * 1000
    m = _ISO_RE.match(t)
    if m:
        frac = (m.group(7) or "").ljust(3, "0")[:3]
        z = m.group(8)
        off = zone_offset_minutes if z is None else 0 if z.lower() == "z" else parse_zone(z)
        return _from_parts(int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4)),
                           int(m.group(5)), int(m.group(6) or 0), int(frac), off)
    m = _RFC_RE.match(t)
    if m:
        months = [x.lower() for x in _MONTHS]
        if m.group(2).lower() not in months:
            raise StressError("unknown month in %s" % text)
        z = m.group(7)
        off = parse_zone(z) if z[0] in "+-" else 0
        return _from_parts(int(m.group(3)), months.index(m.group(2).lower()) + 1, int(m.group(1)),
                           int(m.group(4)), int(m.group(5)), int(m.group(6) or 0), 0, off)
    m = _SLASH_RE.match(t)
    if m:
        return _from_parts(int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4)),
                           int(m.group(5)), int(m.group(6) or 0), 0, zone_offset_minutes)
    raise StressError("unrecognised timestamp %s" % json.dumps(text))


def truncate_to_format(ms, fmt):
    """The instant rounded down to what a format keeps."""
    p = FORMAT_PRECISION_MS[fmt]
    return (ms // p) * p


# --- text encoding ---------------------------------------------------------------------------

CHARSETS = ("utf-8", "utf-16le", "utf-16be")


def encode_text(text, charset="utf-8", bom=False, newline="lf"):
    """Text to bytes; UTF-16 always carries a BOM; crlf turns every "\\n" into "\\r\\n"."""
    body = re.sub(r"\r?\n", "\r\n", text) if newline == "crlf" else text
    if charset == "utf-8":
        raw = body.encode("utf-8", "surrogatepass")
        return b"\xef\xbb\xbf" + raw if bom else raw
    if charset == "utf-16le":
        return b"\xff\xfe" + body.encode("utf-16-le", "surrogatepass")
    if charset == "utf-16be":
        return b"\xfe\xff" + body.encode("utf-16-be", "surrogatepass")
    raise StressError("unknown charset %r" % (charset,))


def decode_text(data, normalize_newlines=True):
    """Detect the charset by its BOM (none: UTF-8), drop the BOM, read CRLF as LF.
    Returns (text, spec) with spec {charset, bom, newline}."""
    data = bytes(data)
    charset, bom, body = "utf-8", False, data
    if data[:3] == b"\xef\xbb\xbf":
        bom, body = True, data[3:]
    elif data[:2] == b"\xff\xfe":
        charset, bom, body = "utf-16le", True, data[2:]
    elif data[:2] == b"\xfe\xff":
        charset, bom, body = "utf-16be", True, data[2:]
    if charset != "utf-8" and len(body) % 2:
        raise StressError("%s text has an odd byte count" % charset)
    if charset == "utf-8":
        text = body.decode("utf-8", "replace")
    else:
        text = body.decode("utf-16-le" if charset == "utf-16le" else "utf-16-be", "surrogatepass")
    newline = "crlf" if "\r\n" in text else "lf"
    if normalize_newlines:
        text = text.replace("\r\n", "\n")
    return text, {"charset": charset, "bom": bom, "newline": newline}


# --- wrappers: gzip and base64 layers --------------------------------------------------------

WRAP_LAYERS = ("gzip", "base64", "base64-mime")
_BASE64_RE = re.compile(r"^[A-Za-z0-9+/]+={0,2}$")


def _apply_layer(data, layer):
    if layer == "gzip":
        # Level 9 and mtime 0: the bytes depend on the input only.
        return gzip.compress(data, compresslevel=9, mtime=0)
    b64 = base64.b64encode(data)
    if layer == "base64":
        return b64
    if layer == "base64-mime":
        return b"".join(b64[i:i + 76] + b"\n" for i in range(0, len(b64), 76))
    raise StressError("unknown layer %r" % (layer,))


def wrap(data, layers):
    """Apply layers in order: layers[0] is innermost, the last one outermost."""
    out = _to_bytes(data)
    for layer in layers:
        out = _apply_layer(out, layer)
    return out


def _gunzip(data):
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as e:
        raise StressError("not valid gzip data: %s" % e)


def _decode_base64(data):
    compact = re.sub(r"\s+", "", data.decode("utf-8", "replace"))
    if not compact:
        return b""
    if len(compact) % 4 or not _BASE64_RE.match(compact):
        raise StressError("not valid base64 text")
    return base64.b64decode(compact)


def unwrap(data, layers):
    """Undo wrap(data, layers) given the same list (peels from the outermost)."""
    out = _to_bytes(data)
    for layer in reversed(list(layers)):
        out = _gunzip(out) if layer == "gzip" else _decode_base64(out)
    return out


def is_gzip(data):
    return len(data) >= 18 and data[:3] == b"\x1f\x8b\x08"


def detect_base64(data):
    """"base64", "base64-mime" (has line breaks) or None."""
    if len(data) < 4 or re.match(rb"^[A-Za-z0-9+/=\r\n]*$", data) is None:
        return None
    text = data.decode("ascii")
    compact = re.sub(r"[\r\n]", "", text)
    if not compact or len(compact) % 4 or not _BASE64_RE.match(compact):
        return None
    return "base64-mime" if "\n" in text else "base64"


def unwrap_auto(data, max_layers=32):
    """Detect and peel gzip/base64 layers until neither is recognised. Returns (data, layers)
    with layers in wrap order, so wrap(data, layers) rebuilds the input."""
    data = _to_bytes(data)
    peeled = []
    while len(peeled) < max_layers:
        if is_gzip(data):
            data = _gunzip(data)
            peeled.append("gzip")
            continue
        b64 = detect_base64(data)
        if b64 is None:
            break
        data = _decode_base64(data)
        peeled.append(b64)
    return data, peeled[::-1]


def random_layers(rng, min_layers=1, max_layers=3):
    """A seed-chosen stack of min..max layers, any order, repeats allowed."""
    return [rng.pick(WRAP_LAYERS) for _ in range(rng.int(min_layers, max_layers))]


def layer_suffix(layers):
    """[gzip, base64] -> ".gz.b64"."""
    return "".join(".gz" if l == "gzip" else ".b64" for l in layers)


# --- split parts and truncation --------------------------------------------------------------

def split_bytes(rng, data, parts, align="byte", prefix="part"):
    """Cut data into at most `parts` files with random names. Returns (files, manifest); the
    manifest (format longhaul-parts/1) lists the parts in joining order with offsets and sha256."""
    data = _to_bytes(data)
    if parts < 1:
        raise StressError("split_bytes: parts must be >= 1")
    if align == "line":
        candidates = [i + 1 for i in range(len(data) - 1) if data[i] == 0x0A]
    else:
        candidates = list(range(1, len(data)))
    cuts = [0] + sorted(rng.shuffle(candidates)[:max(0, parts - 1)]) + [len(data)]
    files, listed = {}, []
    for a, b in zip(cuts, cuts[1:]):
        chunk = data[a:b]
        path = "%s-%s" % (prefix, hex_token(rng, 8))
        while path in files:
            path = "%s-%s" % (prefix, hex_token(rng, 8))
        files[path] = chunk
        listed.append({"path": path, "offset": a, "length": len(chunk), "sha256": sha256_hex(chunk)})
    manifest = {"format": "longhaul-parts/1", "total_bytes": len(data), "sha256": sha256_hex(data),
                "parts": listed}
    return files, manifest


def join_parts(files, manifest):
    """Concatenate parts in manifest order, checking every digest and the total."""
    chunks = []
    for p in manifest["parts"]:
        if p["path"] not in files:
            raise StressError("%s: missing part" % p["path"])
        chunk = files[p["path"]]
        if sha256_hex(chunk) != p["sha256"]:
            raise StressError("%s: sha256 mismatch" % p["path"])
        chunks.append(chunk)
    whole = b"".join(chunks)
    if sha256_hex(whole) != manifest["sha256"]:
        raise StressError("joined parts do not match the manifest sha256")
    return whole


def truncate_bytes(rng, data, max_fraction=0.3, align="byte"):
    """Cut off the tail: at most max_fraction of the bytes, at least one when data is non-empty.
    Returns (kept, cut) with cut {offset, length, sha256, lines}."""
    data = _to_bytes(data)
    max_cut = max(1, int(math.floor(len(data) * max_fraction)))
    offset = len(data) - rng.int(min(1, len(data)), min(max_cut, len(data)))
    if align == "line":
        while offset > 0 and data[offset - 1] != 0x0A:
            offset -= 1
    removed = data[offset:]
    return data[:offset], {"offset": offset, "length": len(removed), "sha256": sha256_hex(removed),
                           "lines": removed.count(b"\n")}


# --- nested manifests ------------------------------------------------------------------------

def _dir(path):
    return posixpath.dirname(path) or "."


def build_manifest_tree(rng, data, depth=2, fanout=3, wrap_rate=0.3, root="manifest.json"):
    """Spread data over a tree of JSON manifests (format longhaul-manifest/1) depth levels deep.
    Entries join in ascending "order" (their array order is shuffled); a data entry lists the
    wrap layers of its file in "encoding". Returns {files, root, depth, dataFiles, manifests}."""
    data = _to_bytes(data)
    if depth < 1 or fanout < 1:
        raise StressError("build_manifest_tree: depth and fanout must be >= 1")
    files = {}
    counts = {"dataFiles": 0, "manifests": 0}

    def unique_path(d, stem, ext):
        while True:
            p = posixpath.normpath(posixpath.join(d, "%s-%s%s" % (stem, hex_token(rng), ext)))
            if p not in files:
                return p

    def write_manifest(path, chunk_bytes, level):
        d = _dir(path)
        cuts = sorted({rng.int(0, len(chunk_bytes)) for _ in range(1, rng.int(1, fanout))})
        cuts = [0] + cuts + [len(chunk_bytes)]
        entries = []
        for i, (a, b) in enumerate(zip(cuts, cuts[1:])):
            chunk = chunk_bytes[a:b]
            deeper = level + 1 < depth
            child_dir = posixpath.join(d, "d" + hex_token(rng, 4)) if deeper else d
            if deeper:
                child = unique_path(child_dir, "index", ".json")
                write_manifest(child, chunk, level + 1)
                entries.append({"kind": "manifest", "path": posixpath.relpath(child, d), "order": i,
                                "encoding": [], "sha256": sha256_hex(chunk)})
            else:
                encoding = random_layers(rng, 1, 2) if rng.next() < wrap_rate else []
                child = unique_path(child_dir, "part", ".bin")
                files[child] = wrap(chunk, encoding)
                counts["dataFiles"] += 1
                entries.append({"kind": "data", "path": posixpath.relpath(child, d), "order": i,
                                "encoding": encoding, "sha256": sha256_hex(chunk)})
        manifest = {"format": "longhaul-manifest/1", "entries": rng.shuffle(entries)}
        files[path] = (json.dumps(manifest, indent=2) + "\n").encode()
        counts["manifests"] += 1

    write_manifest(root, data, 0)
    return {"files": files, "root": root, "depth": depth, "dataFiles": counts["dataFiles"],
            "manifests": counts["manifests"]}


def resolve_manifest(files, root, max_depth=64):
    """Follow a manifest tree from root and return the joined data; checks sha256 when present.
    Missing files, cycles and digest mismatches are StressErrors."""
    def visit(path, stack):
        if path in stack:
            raise StressError("%s: manifest cycle via %s" % (path, " -> ".join(stack)))
        if len(stack) > max_depth:
            raise StressError("%s: manifests nested deeper than %d" % (path, max_depth))
        if path not in files:
            raise StressError("%s: missing file" % path)
        try:
            m = json.loads(files[path].decode("utf-8"))
        except ValueError:
            raise StressError("%s: manifest is not JSON" % path)
        if not isinstance(m, dict) or not isinstance(m.get("entries"), list):
            raise StressError("%s: manifest has no entries array" % path)
        for i, e in enumerate(m["entries"]):
            ok = (isinstance(e, dict) and e.get("kind") in ("data", "manifest")
                  and isinstance(e.get("path"), str) and _is_number(e.get("order"))
                  and isinstance(e.get("encoding"), list))
            if not ok:
                raise StressError("%s: entries[%d]: needs kind, path, order, encoding" % (path, i))
        d = _dir(path)
        parts = []
        for e in sorted(m["entries"], key=lambda e: e["order"]):
            target = posixpath.normpath(posixpath.join(d, e["path"]))
            if e["kind"] == "manifest":
                chunk = visit(target, stack + [path])
            else:
                if target not in files:
                    raise StressError("%s: missing file (listed in %s)" % (target, path))
                chunk = unwrap(files[target], e["encoding"])
            if isinstance(e.get("sha256"), str) and sha256_hex(chunk) != e["sha256"]:
                raise StressError("%s: sha256 does not match %s" % (target, path))
            parts.append(chunk)
        return b"".join(parts)

    return visit(posixpath.normpath(root), [])


# --- PNG and image operations ----------------------------------------------------------------

class Raster:
    """8-bit pixels, row-major, channels interleaved: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA."""

    def __init__(self, width, height, channels, data):
        self.width, self.height, self.channels, self.data = width, height, channels, bytes(data)
        if (width <= 0 or height <= 0 or channels not in (1, 2, 3, 4)
                or len(self.data) != width * height * channels):
            raise StressError("image: %dx%dx%d does not match %d bytes" % (width, height, channels, len(self.data)))

    def __eq__(self, other):
        return (isinstance(other, Raster) and (self.width, self.height, self.channels, self.data)
                == (other.width, other.height, other.channels, other.data))

    def __repr__(self):
        return "Raster(%d, %d, %d, <%d bytes>)" % (self.width, self.height, self.channels, len(self.data))


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOR_TYPE = {1: 0, 2: 4, 3: 2, 4: 6}
_CHANNELS = {0: 1, 4: 2, 2: 3, 6: 4}


def _png_chunk(kind, data):
    body = kind.encode("ascii") + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & _M32)


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


# Filtering a row maps whole rows (operator functions over zip-like maps) rather than looping per
# byte in Python: the per-byte loop was most of an image-making generator's time (kit version 11).
# The bytes are the same as that loop's (test/tasks/lh-encode-png.test.ts compares them).
_WRAP = bytes(range(256))  # _WRAP[d] == d & 0xFF for -256 <= d <= 255 (negative indexes wrap)
_HALF = [v >> 1 for v in range(511)]
_COST = [v if v < 128 else 256 - v for v in range(256)]  # "auto": the cost of one filtered byte


def _filter_row(kind, row, prev, left, upleft):
    """Row `row` filtered with type `kind` against the row above (`prev`); `left` and `upleft` are
    row and prev shifted right by one pixel, zero-filled."""
    if kind == 0:
        return bytes(row)
    if kind == 1:
        pred = left
    elif kind == 2:
        pred = prev
    elif kind == 3:
        pred = map(_HALF.__getitem__, map(operator.add, left, prev))
    else:  # Paeth, p = a + b - c: |p - a| = |b - c|, |p - b| = |a - c|, |p - c| = |a + b - 2c|
        pa = map(abs, map(operator.sub, prev, upleft))
        pb = map(abs, map(operator.sub, left, upleft))
        pc = map(abs, map(operator.sub, map(operator.add, left, prev), map(operator.add, upleft, upleft)))
        pred = [a if x <= y and x <= z else b if y <= z else c
                for a, b, c, x, y, z in zip(left, prev, upleft, pa, pb, pc)]
    return bytes(map(_WRAP.__getitem__, map(operator.sub, row, pred)))


def encode_png(img, filter="auto", idat_size=None):
    """An 8-bit non-interlaced PNG. filter: 0-4 for every row, "cycle" (row y uses y mod 5) or
    "auto" (least absolute sum, the first type on a tie); idat_size splits the zlib stream over
    IDAT chunks."""
    bpp = img.channels
    stride = img.width * bpp
    pad = bytes(bpp)
    raw = bytearray()
    prev = bytes(stride)
    for y in range(img.height):
        row = bytes(img.data[y * stride:(y + 1) * stride])
        left, upleft = pad + row[:stride - bpp], pad + prev[:stride - bpp]
        if filter == "auto":
            best = None
            for t in range(5):
                data = _filter_row(t, row, prev, left, upleft)
                cost = sum(map(_COST.__getitem__, data))
                if best is None or cost < best[2]:
                    best = (t, data, cost)
            kind, filtered = best[0], best[1]
        else:
            kind = y % 5 if filter == "cycle" else filter
            filtered = _filter_row(kind, row, prev, left, upleft)
        raw.append(kind)
        raw += filtered
        prev = row
    ihdr = struct.pack(">IIBBBBB", img.width, img.height, 8, _COLOR_TYPE[img.channels], 0, 0, 0)
    z = zlib.compress(bytes(raw), 9)
    size = max(1, idat_size or len(z))
    idats = [_png_chunk("IDAT", z[i:i + size]) for i in range(0, len(z), size)]
    return _PNG_SIGNATURE + _png_chunk("IHDR", ihdr) + b"".join(idats) + _png_chunk("IEND", b"")


def decode_png(data):
    """Decode an 8-bit, non-interlaced grey/grey+alpha/RGB/RGBA PNG (all five row filters)."""
    data = bytes(data)
    if data[:8] != _PNG_SIGNATURE:
        raise StressError("png: bad signature")
    at, header, idat = 8, None, []
    while True:
        if at + 12 > len(data):
            raise StressError("png: truncated (no IEND)")
        length = struct.unpack(">I", data[at:at + 4])[0]
        kind = data[at + 4:at + 8].decode("latin-1")
        if at + 12 + length > len(data):
            raise StressError("png: chunk %s runs past the end" % kind)
        body = data[at + 8:at + 8 + length]
        if zlib.crc32(data[at + 4:at + 8 + length]) & _M32 != struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0]:
            raise StressError("png: bad CRC in %s" % kind)
        at += 12 + length
        if kind == "IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body[:13])
            if depth != 8 or color not in _CHANNELS or interlace != 0:
                raise StressError("png: unsupported (bit depth %d, color type %d, interlace %d)"
                                  % (depth, color, interlace))
            header = (width, height, _CHANNELS[color])
        elif kind == "IDAT":
            idat.append(body)
        elif kind == "IEND":
            break
    if header is None:
        raise StressError("png: no IHDR")
    width, height, channels = header
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    if len(raw) < (stride + 1) * height:
        raise StressError("png: image data too short")
    out = bytearray(stride * height)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        base = y * stride
        if kind > 4:
            raise StressError("png: row %d has unknown filter %d" % (y, kind))
        for i in range(stride):
            a = out[base + i - channels] if i >= channels else 0
            b = out[base - stride + i] if y > 0 else 0
            c = out[base - stride + i - channels] if y > 0 and i >= channels else 0
            pred = 0 if kind == 0 else a if kind == 1 else b if kind == 2 else (a + b) >> 1 if kind == 3 else _paeth(a, b, c)
            out[base + i] = (line[i] + pred) & 0xFF
    return Raster(width, height, channels, out)


ROTATIONS = (90, 180, 270)


def rotate(img, degrees):
    """Rotate clockwise by 90, 180 or 270 degrees."""
    if degrees not in ROTATIONS:
        raise StressError("rotate: degrees must be 90, 180 or 270")
    w, h, c = img.width, img.height, img.channels
    swap = degrees != 180
    nw, nh = (h, w) if swap else (w, h)
    out = bytearray(len(img.data))
    for y in range(h):
        for x in range(w):
            if degrees == 90:
                dx, dy = h - 1 - y, x
            elif degrees == 180:
                dx, dy = w - 1 - x, h - 1 - y
            else:
                dx, dy = y, w - 1 - x
            src = (y * w + x) * c
            dst = (dy * nw + dx) * c
            out[dst:dst + c] = img.data[src:src + c]
    return Raster(nw, nh, c, out)


def crop(img, x, y, width, height):
    ok = x >= 0 and y >= 0 and width > 0 and height > 0 and x + width <= img.width and y + height <= img.height
    if not ok:
        raise StressError("crop box (%d, %d, %d, %d) is outside %dx%d" % (x, y, width, height, img.width, img.height))
    c = img.channels
    rows = [img.data[((y + j) * img.width + x) * c:((y + j) * img.width + x + width) * c] for j in range(height)]
    return Raster(width, height, c, b"".join(rows))


def random_crop(rng, img, min_fraction=0.5):
    """A seed-chosen crop keeping at least min_fraction of each side. Returns (image, box) with
    box {x, y, width, height} in the original's coordinates."""
    width = rng.int(max(1, math.ceil(img.width * min_fraction)), img.width)
    height = rng.int(max(1, math.ceil(img.height * min_fraction)), img.height)
    box = {"x": rng.int(0, img.width - width), "y": rng.int(0, img.height - height), "width": width, "height": height}
    return crop(img, box["x"], box["y"], width, height), box


def add_noise(rng, img, bound, include_alpha=False):
    """Add an integer in [-bound, bound] to every colour sample, clamped to [0, 255]."""
    if not isinstance(bound, int) or bound < 0:
        raise StressError("add_noise: bound must be an integer >= 0")
    has_alpha = img.channels in (2, 4)
    out = bytearray(img.data)
    for i in range(len(out)):
        if has_alpha and not include_alpha and i % img.channels == img.channels - 1:
            continue
        out[i] = max(0, min(out[i] + rng.int(-bound, bound), 255))
    return Raster(img.width, img.height, img.channels, out)


def max_abs_diff(a, b):
    """Largest per-sample difference of two same-shaped images (inf when shapes differ)."""
    if (a.width, a.height, a.channels) != (b.width, b.height, b.channels):
        return float("inf")
    return max((abs(x - y) for x, y in zip(a.data, b.data)), default=0)


def perturb_image(rng, img, crop=None, rotate_image=None, noise_bound=None):
    """Seed-chosen crop, then rotation (clockwise), then noise; encoded with a seed-chosen filter
    and IDAT split. Returns {png, image, crop, rotation, noiseBound, notes}."""
    notes, image, box = [], img, None
    if crop if crop is not None else rng.next() < 0.5:
        image, box = random_crop(rng, image, 0.6)
        notes.append("cropped to %dx%d at (%d, %d)" % (box["width"], box["height"], box["x"], box["y"]))
    rotation = 0
    if rotate_image if rotate_image is not None else rng.next() < 0.5:
        rotation = rng.pick(ROTATIONS)
        image = rotate(image, rotation)
        notes.append("rotated %d degrees clockwise" % rotation)
    bound = noise_bound if noise_bound is not None else rng.int(0, 8)
    if bound > 0:
        image = add_noise(rng, image, bound)
        notes.append("noise within +-%d per sample" % bound)
    flt = rng.pick(["auto", "cycle", 0, 1, 2, 3, 4])
    png = encode_png(image, filter=flt, idat_size=rng.int(64, 8192))
    return {"png": png, "image": image, "crop": box, "rotation": rotation, "noiseBound": bound, "notes": notes}


# --- composing perturbations -----------------------------------------------------------------

# id, stage, what it preserves. Stages run records -> text -> bytes -> files.
PERTURBATIONS = (
    ("rename-fields", "records", "values; keys map back one-to-one"),
    ("missing-values", "records", "every cell not listed as removed"),
    ("numeric-jitter", "records", "numbers within the stated relative bound"),
    ("duplicate-rows", "records", "the original rows after the listed copies are dropped"),
    ("reorder-rows", "records", "the multiset of rows (order is stated)"),
    ("reorder-keys", "records", "every record's keys and values"),
    ("unit-change", "records", "the quantity (converts back to 1e-9)"),
    ("timestamp-format", "records", "the instant, to the format's precision"),
    ("junk-lines", "text", "the text after the listed lines are deleted"),
    ("text-encoding", "text", "the text (BOM dropped, CRLF read as LF)"),
    ("wrap-layers", "bytes", "the bytes after peeling gzip/base64 layers"),
    ("split-parts", "files", "the bytes when parts are joined in manifest order"),
    ("nested-manifest", "files", "the bytes when the manifest tree is resolved"),
)
PERTURBATION_IDS = tuple(p[0] for p in PERTURBATIONS)
_STAGE_ORDER = ("records", "text", "bytes", "files")
_EXCLUSIVE = ("split-parts", "nested-manifest")  # both decide the final file layout


def stage_of(pid):
    for p in PERTURBATIONS:
        if p[0] == pid:
            return p[1]
    raise StressError("unknown perturbation %s" % pid)


def order_perturbations(ids):
    """Stable sort by stage; within text, junk-lines before text-encoding."""
    def rank(pid):
        return _STAGE_ORDER.index(stage_of(pid)) * 10 + (1 if pid == "text-encoding" else 0)
    return [pid for _, pid in sorted(enumerate(ids), key=lambda x: (rank(x[1]), x[0]))]


def pick_perturbations(rng, n, pool=PERTURBATION_IDS):
    """n distinct perturbations (fewer if the pool runs out), ordered so they compose."""
    chosen = []
    for pid in rng.shuffle(pool):
        if len(chosen) >= n:
            break
        if pid in chosen:
            continue
        if pid in _EXCLUSIVE and any(c in _EXCLUSIVE for c in chosen):
            continue
        chosen.append(pid)
    return order_perturbations(chosen)


_ZONES = (-480, -300, -180, 0, 60, 330, 345, 540, 600)


def _current_fields(origin, originals):
    return [c for c, o in origin.items() if o in originals]


def _apply_record_perturbation(rng, pid, state, units, timestamps, missing_rate, jitter_bound):
    """One record-level perturbation on state {rows, origin (current -> original field)};
    returns {id, report, note}, or None when it had nothing to act on."""
    if pid == "rename-fields":
        rows, mapping = rename_fields(rng, state["rows"])
        state["rows"] = rows
        state["origin"] = {now: state["origin"].get(before, before) for now, before in mapping.items()}
        return {"id": pid, "report": {"mapping": mapping},
                "note": "fields renamed (new -> old): %s" % json.dumps(mapping, ensure_ascii=False)}
    if pid == "missing-values":
        rows, removed = inject_missing(rng, state["rows"], missing_rate)
        state["rows"] = rows
        return {"id": pid, "report": {"rate": missing_rate, "removed": removed},
                "note": "%d values removed (rate %g)" % (len(removed), missing_rate)}
    if pid == "numeric-jitter":
        skip = set(_current_fields(state["origin"], timestamps))
        fields = [f for f in state["origin"] if f not in skip]
        rows, changes = jitter_numbers(rng, state["rows"], jitter_bound, mode="relative", fields=fields)
        state["rows"] = rows
        return {"id": pid, "report": {"bound": jitter_bound, "mode": "relative", "changed": len(changes)},
                "note": "numbers jittered by <= %g relative" % jitter_bound}
    if pid == "duplicate-rows":
        count = max(1, _round_half_up(len(state["rows"]) * 0.05))
        rows, dups = duplicate_rows(rng, state["rows"], count)
        state["rows"] = rows
        return {"id": pid, "report": {"duplicates": dups}, "note": "%d duplicate rows inserted" % len(dups)}
    if pid == "reorder-rows":
        rows, order = shuffle_with_order(rng, state["rows"])
        state["rows"] = rows
        return {"id": pid, "report": {"order": order}, "note": "rows shuffled"}
    if pid == "reorder-keys":
        state["rows"] = shuffle_keys(rng, state["rows"])
        return {"id": pid, "report": {}, "note": "keys shuffled within each record"}
    if pid == "unit-change":
        candidates = _current_fields(state["origin"], list(units))
        if not candidates:
            return None
        field = rng.pick(candidates)
        original = state["origin"].get(field, field)
        frm = units[original]
        to = rng.pick([u for u in units_of(quantity_of(frm)) if u != frm])
        label = rng.pick(["suffix", "column"])
        rows, change = change_units(state["rows"], field, frm, to, label)
        state["rows"] = rows
        del state["origin"][field]
        state["origin"][change["newField"]] = original
        if label == "column":
            state["origin"][field + "_unit"] = original + "_unit"
        return {"id": pid, "report": change, "note": "%s converted from %s to %s (%s)" % (field, frm, to, label)}
    if pid == "timestamp-format":
        fields = _current_fields(state["origin"], timestamps)
        if not fields:
            return None
        fmt = rng.pick(TIMESTAMP_FORMATS)
        offset = rng.pick(_ZONES)

        def convert(v):
            if v is None or isinstance(v, bool):
                return v
            try:
                ms = int(v) if _is_number(v) else parse_instant(v, fmt="epoch-ms")
            except (StressError, ValueError):
                return v
            text = format_instant(ms, fmt, offset)
            return int(text) if fmt.startswith("epoch") else text

        state["rows"] = [{k: convert(v) if k in fields else v for k, v in r.items()} for r in state["rows"]]
        zone = zone_name(offset)
        return {"id": pid, "report": {"fields": fields, "format": fmt, "zone": zone, "offsetMinutes": offset},
                "note": "timestamps in %s, zone %s" % (fmt, zone)}
    return None


def apply_perturbations(rng, records, ids, name="data", fmt=None, units=None, timestamps=(),
                        missing_rate=0.1, jitter_bound=1e-6):
    """Apply perturbations in the given order (from pick_perturbations or order_perturbations).

    units: original field -> unit (unit-change converts one of them); timestamps: fields holding
    ISO text or epoch-ms; fmt: csv, tsv, json or jsonl (seed-chosen, line-based with junk-lines).
    Returns {inputs (path -> bytes), entry, format, records (as written), applied, skipped, notes}.
    """
    units = units or {}
    timestamps = list(timestamps)
    applied, skipped = [], []
    state = {"rows": [dict(r) for r in records], "origin": {k: k for k in columns_of(records)}}

    def record(a, pid):
        (skipped.append(pid) if a is None else applied.append(a))

    for pid in ids:
        if stage_of(pid) == "records":
            record(_apply_record_perturbation(rng, pid, state, units, timestamps, missing_rate, jitter_bound), pid)

    line_based = ("csv", "tsv", "jsonl")
    fmt = fmt if fmt is not None else rng.pick(line_based if "junk-lines" in ids else RECORD_FORMATS)
    text = serialize_records(state["rows"], fmt)
    data, suffix = None, ""
    for pid in ids:
        stage = stage_of(pid)
        if stage in ("records", "files"):
            continue
        if pid == "junk-lines":
            multiline = fmt != "jsonl" and any(re.search(r"[\r\n]", str(v)) for r in state["rows"] for v in r.values())
            if fmt not in line_based or multiline or data is not None:
                skipped.append(pid)
                continue
            count = max(1, _round_half_up(len(text.split("\n")) * 0.05))
            text, inserted = inject_junk_lines(rng, text, count, keep_first=0 if fmt == "jsonl" else 1)
            record({"id": pid, "report": {"inserted": inserted},
                    "note": "%d junk lines inserted" % len(inserted)}, pid)
        elif pid == "text-encoding":
            charset = rng.pick(CHARSETS)
            spec = {"charset": charset, "bom": charset != "utf-8" or rng.next() < 0.5,
                    "newline": rng.pick(["lf", "crlf"])}
            data = encode_text(text, **spec)
            record({"id": pid, "report": dict(spec), "note": "text encoded as %s%s, %s"
                    % (charset, " with BOM" if spec["bom"] else "", spec["newline"])}, pid)
        elif pid == "wrap-layers":
            layers = random_layers(rng, 1, 3)
            data = wrap(text if data is None else data, layers)
            suffix += layer_suffix(layers)
            record({"id": pid, "report": {"layers": layers}, "note": "wrapped in %s" % " then ".join(layers)}, pid)
    data = text.encode("utf-8") if data is None else data
    file_name = "%s.%s%s" % (name, fmt, suffix)
    inputs, entry = {file_name: data}, file_name
    for pid in ids:
        if pid == "split-parts":
            files, manifest = split_bytes(rng, data, rng.int(2, 5), prefix=file_name + ".part")
            inputs = {"%s.parts/%s" % (name, p): b for p, b in files.items()}
            entry = "%s.parts/manifest.json" % name
            inputs[entry] = (json.dumps(manifest, indent=2) + "\n").encode()
            record({"id": pid, "report": {"manifest": entry, "parts": len(manifest["parts"])},
                    "note": "split into %d parts" % len(manifest["parts"])}, pid)
        elif pid == "nested-manifest":
            tree = build_manifest_tree(rng, data, depth=rng.int(2, 4), fanout=3, root="%s/manifest.json" % name)
            inputs, entry = tree["files"], tree["root"]
            record({"id": pid, "report": {"root": tree["root"], "depth": tree["depth"], "dataFiles": tree["dataFiles"]},
                    "note": "nested manifests, depth %d" % tree["depth"]}, pid)
    return {"inputs": inputs, "entry": entry, "format": fmt, "records": state["rows"], "applied": applied,
            "skipped": skipped, "notes": [a["note"] for a in applied]}


def _check_input_path(path):
    ok = (path != "" and not path.startswith("/") and "\\" not in path
          and posixpath.normpath(path) == path.rstrip("/") and not posixpath.normpath(path).startswith(".."))
    if not ok:
        raise StressError("stress input path %s must be relative, normalised and inside the case" % json.dumps(path))


def make_stress_case(seed, generator):
    """Run generator(Rng(seed), seed) -> {inputs, expected, notes?}: the same seed always yields
    the same case. Returns {seed, inputs, expected, notes}; input paths must stay inside the case."""
    out = generator(Rng(seed), seed)
    for path, content in out["inputs"].items():
        _check_input_path(path)
        if not isinstance(content, (str, bytes, bytearray)):
            raise StressError("stress input %s: content must be str or bytes" % path)
    return {"seed": seed, "inputs": out["inputs"], "expected": out["expected"], "notes": out.get("notes", [])}


def write_stress_inputs(directory, inputs):
    """Write a case's inputs under directory (folders created); returns the paths written."""
    written = []
    for path, content in inputs.items():
        _check_input_path(path)
        target = os.path.join(directory, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(_to_bytes(content))
        written.append(target)
    return written


def records_generator(records, count=4, pool=PERTURBATION_IDS, **options):
    """A generator for make_stress_case: count seed-chosen perturbations of records. expected holds
    the original records, the records as written, the entry file, the format and the reports."""
    def generate_case(rng, seed):
        ids = pick_perturbations(rng.fork("pick"), count, pool)
        out = apply_perturbations(rng.fork("apply"), records, ids, **options)
        return {"inputs": out["inputs"], "notes": out["notes"],
                "expected": {"original": [dict(r) for r in records], "records": out["records"],
                             "entry": out["entry"], "format": out["format"], "perturbations": ids,
                             "applied": out["applied"]}}
    return generate_case
