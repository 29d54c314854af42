"""Shared verifier code: per-subtask error isolation, continuous scoring, and the two reward files.

Standard library only, so it runs in the bare sandbox. Every rubric id always gets a score.
"""
import hashlib
import json
import os
import subprocess
import sys
import threading
import traceback

OUT = os.environ.get("LONGHAUL_VERIFIER_DIR", "/logs/verifier")
SEED = int(os.environ.get("LONGHAUL_SEED", "0") or 0)
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
SEALED_FAILED = 86  # exit status when the sealed runner is broken: a grading error, not a score
# Set only when the question is whether R is below 1 (RES verification's bare-oracle trial,
# docs/scale.md): after the first weighted subtask below 1 the answer is known, so the rest are
# not run and score 0. Never set for a scored trial.
STOP_AT_FIRST_FAILURE = os.environ.get("LONGHAUL_STOP_AT_FIRST_FAILURE") == "1"
# Set only when the question is whether R is below a threshold (task check's mutant sample: is
# R < 0.95?): once the weight already lost makes R >= the threshold impossible, the rest are not
# run and score 0. Never set for a scored trial.
STOP_BELOW = float(os.environ.get("LONGHAUL_STOP_BELOW") or 0)


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
    """argv prefixed with the sealed runner (for Popen-style use); paths in argv are classified."""
    if GENERATE_ONLY:
        return [sys.executable, "-I", "-c", "raise SystemExit(1)"]
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


def _through_channel(argv):
    """argv with the program's input replaced by its presented copy, when the channel applies."""
    ch = _channel()
    if ch is None or ch[1].get("input_kind") == "stream":
        return argv
    kit, decl = ch
    i = decl["input_index"]
    if len(argv) <= i or argv[i - 1] != decl["program"] or not os.path.exists(argv[i]):
        return argv
    import tempfile
    out = list(argv)
    out[i] = kit.present(argv[i], decl["steps"], tempfile.mkdtemp(prefix="res-channel-"))
    return out


def _through_stream(argv, full):
    """A stream channel: the program's standard input reaches it through the channel's filter."""
    ch = _channel()
    if ch is None or ch[1].get("input_kind") != "stream" or ch[1]["program"] not in argv:
        return full
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "res")
    return [sys.executable, os.path.join(here, "res_channel.py"), "stream",
            os.path.join(here, "channel.json"), "--"] + full


def run(argv, timeout=10, stdin=None, cwd=WORK, ro=(), out=()):
    """Run the agent's program sealed away from /tests, the seed and the reward files.

    Absolute paths in argv that exist are shown read-only; a missing one whose folder exists is
    an output the program may create. Never raises on the program's failure: returns
    (code, stdout, stderr). A broken sealed runner ends grading with SEALED_FAILED instead.
    """
    if GENERATE_ONLY:
        return 1, "", "not run (LONGHAUL_GENERATE_ONLY)"
    sealed = not _grader_owned(argv)
    if sealed:
        argv = _through_channel(argv)
    full = sealed_argv(argv, timeout=timeout, cwd=cwd, ro=ro, out=out) if sealed else list(argv)
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
    try:
        # The runner enforces the limit itself; this is a backstop a little later.
        p.wait(timeout=None if timeout is None else timeout + 5)
    except subprocess.TimeoutExpired:
        _kill_group(p)
        return -9, "", "timeout"
    for w in workers:
        w.join(5)
    o, e = _text(outs), _text(errs)
    if sealed and p.returncode == 124:
        return -9, o, "timeout"
    if sealed and p.returncode == 125 and "sealed-run:" in e:
        sys.stderr.write(e)
        raise SealedRunBroken(SEALED_FAILED)
    return p.returncode, o, e


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
        try:
            r = fn()
            score, msg = r if isinstance(r, tuple) else (r, "")
            # Rounded so weighted sums like 0.7 + 0.2 + 0.1 give exactly 1.0.
            score = round(max(0.0, min(1.0, float(score))), 9)
        except Exception as e:
            score, msg = 0.0, "error: %s: %s" % (type(e).__name__, str(e)[:300])
            traceback.print_exc(file=sys.stderr)
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
        with open(os.path.join(OUT, "reward-details.json"), "w") as f:
            json.dump(det, f, indent=1)
        print(json.dumps(out))
