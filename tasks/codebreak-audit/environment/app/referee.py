#!/usr/bin/env python3
"""Codebreak referee: hides a code and answers one player process over text lines.

  python3 referee.py --mode classic|norepeat|wide|chatty --seed N [--transcript FILE] -- python3 /app/player.py

Prints the episode result as JSON on stdout. With --transcript the whole conversation is written
to FILE in the recorded-game format ("> " referee lines, "< " player lines).
"""
import argparse, json, os, random, subprocess, sys, threading, time
try:
    # Under the grader: what the program prints is read as its output (lh.candidate_output), so
    # the grader's time spent on a flood of it is held against the program, not the grader.
    from lh import candidate_output
except ImportError:  # run on its own, outside the grader
    def candidate_output(stream):
        return stream

STALL = 20.0     # wall seconds one answer may take before the player counts as hung
EPISODE = 60.0   # wall seconds for a whole episode

MODES = {
    "classic": dict(pegs=4, ncolors=6, repeat=True, budget=8, chat=0.05, ping=0.0),
    "norepeat": dict(pegs=5, ncolors=8, repeat=False, budget=8, chat=0.05, ping=0.0),
    "wide": dict(pegs=5, ncolors=7, repeat=True, budget=9, chat=0.05, ping=0.0),
    "chatty": dict(pegs=4, ncolors=7, repeat=True, budget=8, chat=0.5, ping=0.35),
}
LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"


def marks(secret, guess):
    """(exact, near): exact = same colour in the same place; near = for each colour, the smaller of
    its counts among the remaining pegs of each side, summed."""
    exact = 0
    left_s, left_g = {}, {}
    for s, g in zip(secret, guess):
        if s == g:
            exact += 1
        else:
            left_s[s] = left_s.get(s, 0) + 1
            left_g[g] = left_g.get(g, 0) + 1
    near = sum(min(k, left_g.get(c, 0)) for c, k in left_s.items())
    return exact, near


def setup(mode, seed):
    m = MODES[mode]
    rng = random.Random("codebreak/%s/%s" % (mode, seed))
    if mode == "chatty":
        palette = "".join(sorted(rng.sample(LETTERS, m["ncolors"])))
    else:
        palette = LETTERS[: m["ncolors"]]
    if m["repeat"]:
        secret = "".join(rng.choice(palette) for _ in range(m["pegs"]))
    else:
        secret = "".join(rng.sample(palette, m["pegs"]))
    return m, palette, secret, rng


def run_episode(mode, seed, cmd, transcript=None):
    m, palette, secret, rng = setup(mode, seed)
    log = []
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        out = candidate_output(proc.stdout)
    except Exception as e:
        return dict(score=0.0, outcome="player did not start: %s" % e, turns=0)
    last, done, t0 = [time.time()], threading.Event(), time.time()

    def watchdog():  # a player that never answers would block readline forever
        while not done.wait(0.25):
            now = time.time()
            if now - last[0] > STALL or now - t0 > EPISODE:
                proc.kill()
                return

    threading.Thread(target=watchdog, daemon=True).start()

    def say(text):
        log.append("> " + text)
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    def hear():
        line = out.readline()
        last[0] = time.time()
        if not line:
            raise EOFError
        line = line.strip()
        log.append("< " + line)
        return line

    def chatter():
        if rng.random() < m["chat"]:
            say("INFO " + rng.choice(["turns-left=%d" % (m["budget"] - turn), "load=%.2f" % rng.random(), "clock=%d" % int(rng.random() * 1e6), "hint=none"]))
        if rng.random() < m["ping"]:
            token = "%04d" % rng.randrange(10000)
            say("PING " + token)
            if hear() != "PONG " + token:
                raise ValueError("bad answer to PING " + token)

    turn, outcome, score = 0, "out of guesses", 0.0
    try:
        say("INFO codebreak referee 2.3")
        if m["ping"]:
            chatter()
        say("GAME pegs=%d colors=%s repeat=%s budget=%d" % (m["pegs"], palette, "yes" if m["repeat"] else "no", m["budget"]))
        while turn < m["budget"]:
            guess = hear()
            turn += 1
            chatter()
            if len(guess) != m["pegs"] or any(c not in palette for c in guess):
                say("REJECT " + ("length" if len(guess) != m["pegs"] else "colour"))
            elif not m["repeat"] and len(set(guess)) < len(guess):
                say("REJECT repeat")
            else:
                e, n = marks(secret, guess)
                if e == m["pegs"]:
                    say("SOLVED %d" % turn)
                    outcome, score = "solved in %d" % turn, 1.0
                    break
                say("SCORE %d %d" % (e, n))
        else:
            say("OVER secret=%s" % secret)
    except EOFError:
        outcome = "player stopped answering at turn %d" % (turn + 1)
    except (BrokenPipeError, OSError):
        outcome = "player closed the pipe at turn %d" % (turn + 1)
    except ValueError as e:
        outcome = "protocol error: %s" % e
    finally:
        done.set()
        try:
            proc.stdin.close()
        except Exception:
            pass
        try:
            proc.wait(timeout=1)
        except Exception:
            proc.kill()
    if transcript:
        with open(transcript, "w") as f:
            f.write("# mode=%s seed=%s\n" % (mode, seed) + "\n".join(log) + "\n")
    return dict(score=score, outcome=outcome, turns=turn)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="classic", choices=sorted(MODES))
    ap.add_argument("--seed", default="1")
    ap.add_argument("--transcript")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    print(json.dumps(run_episode(a.mode, a.seed, cmd or ["python3", "/app/player.py"], a.transcript)))
