"""Salvo referee: hides seeded fleets and answers one bot process over text lines.

The grader's own program (never shipped): modes, rules text, fleet placement, the protocol loop and
the CPU budget. Every draw comes from random.Random("salvo/<mode>/<seed>"), so an episode is
fully determined by (mode, seed) and the bot's moves."""
import os, random, subprocess, threading, time

from geometry import Board, name, unname
try:
    # Under the grader: what the program prints is read as its output (lh.candidate_output), so
    # the grader's time spent on a flood of it is held against the program, not the grader.
    from lh import candidate_output
except ImportError:  # run on its own, outside the grader
    def candidate_output(stream):
        return stream

STALL = 10.0          # wall seconds one answer may take
MATCH_WALL = 40.0     # wall seconds a whole match may take
CPU_BUDGET = 10.0     # CPU seconds of the bot per episode

FLEETS = {
    "classic": [("carrier", "#####"), ("battleship", "####"), ("tee", "###/.#."), ("ell", "#../###"), ("boat", "##")],
    "salvo": [("cruiser", "###"), ("zig", "##./.##"), ("ell", "#../###"), ("boat", "##"), ("tee", "###/.#.")],
    "cramped": [("hook", "#../###"), ("zig", "##./.##"), ("cruiser", "###"), ("boat", "##")],
}


def setup(mode, seed, games=4):
    """The match's rules (a dict), its rules-file text and one hidden fleet [(name, mask)] per game."""
    rng = random.Random("salvo/%s/%s" % (mode, seed))
    if mode == "classic":
        w, h = rng.randint(9, 12), rng.randint(10, 12)
        r = dict(rotate="yes", touch="yes", salvo="no", sunk="named", blocked=[])
    elif mode == "salvo":
        w, h = rng.randint(9, 11), rng.randint(10, 11)
        r = dict(rotate="yes", touch="edge", salvo="yes", sunk="named", blocked=[])
    else:
        w, h = rng.randint(8, 10), rng.randint(10, 11)
        cells = [complex(x, y) for y in range(h) for x in range(w)]
        r = dict(rotate="mirror", touch="corner", salvo="no", sunk="plain", blocked=rng.sample(cells, rng.randint(6, 10)))
    r.update(width=w, height=h, ships=FLEETS[mode])
    board = Board(w, h, r["blocked"])
    fleets = [hide_fleet(r, board, rng) for _ in range(games)]
    lines = ["# salvo match rules", "board = %dx%d" % (w, h)]
    if r["blocked"]:
        lines.append("blocked = " + " ".join(name(z) for z in sorted(r["blocked"], key=lambda z: (z.imag, z.real))))
    lines += ["%s = %s" % (k, r[k]) for k in ("rotate", "touch", "salvo", "sunk")]
    lines += ["ship %s = %s" % s for s in r["ships"]]
    return r, "\n".join(lines) + "\n", fleets, rng


def hide_fleet(r, board, rng):
    """A uniformly drawn placement for each ship in turn; start over when one no longer fits."""
    while True:
        fleet, used = [], 0
        for ship, pattern in r["ships"]:
            opts = board.spots(pattern, r["rotate"], used)
            if not opts:
                break
            m = rng.choice(opts)
            fleet.append((ship, m))
            used |= board.zone(m, r["touch"])
        else:
            return fleet


class Sea:
    """The hidden side: answers shots, knows when the fleet is gone."""

    def __init__(self, r, fleet):
        self.r, self.board = r, Board(r["width"], r["height"], r["blocked"])
        self.ships = [[s, m, m] for s, m in fleet]     # name, mask, cells not yet hit
        self.fired = 0

    def afloat(self):
        return sum(1 for s in self.ships if s[2])

    def shots_due(self):
        return self.afloat() if self.r["salvo"] == "yes" else 1

    def legal(self, words, k):
        """None if `FIRE c1 .. ck` is legal, else the reason."""
        if not words or words[0] != "FIRE":
            return "expected FIRE"
        cells = words[1:]
        if len(cells) != k:
            return "fired %d cells, %d due" % (len(cells), k)
        seen = 0
        for c in cells:
            try:
                z = unname(c)
            except (ValueError, IndexError):
                return "bad cell %r" % c
            if not self.board.inside(z) or name(z) != c:
                return "bad cell %r" % c
            b = self.board.bit(z)
            if b & self.board.blocked:
                return "blocked cell %s" % c
            if b & (self.fired | seen):
                return "cell %s fired twice" % c
            seen |= b
        return None

    def shoot(self, c):
        b = self.board.bit(unname(c))
        self.fired |= b
        for s in self.ships:
            if s[1] & b:
                was = s[2]
                s[2] &= ~b
                if was and not s[2]:
                    return {"named": "sunk:" + s[0], "plain": "sunk", "silent": "hit"}[self.r["sunk"]]
                return "hit"
        return "miss"


def cpu_seconds(pid):
    """CPU time of the process and its descendants (from /proc); None without /proc."""
    total, todo, seen = 0.0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            if p == pid:
                return None
            continue
        try:
            for tid in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, tid)) as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            pass
    return total


def run_match(mode, seed, cmd_for_rules, scratch, games=4):
    """Play one match (one bot process, `games` hidden fleets under the same rules).
    cmd_for_rules(path) gives the bot's argv for the rules file written into scratch.
    Returns {turns: [turns per game] (None when the match was lost), outcome}."""
    r, text, fleets, rng = setup(mode, seed, games)
    path = os.path.join(scratch, "%s-%s.rules" % (mode, seed))
    with open(path, "w") as fh:
        fh.write(text)
    # The bot's process tree cannot have used more CPU than (wall time since it was started) x
    # (CPUs online): until that bound reaches half the budget, reading its CPU time from /proc
    # (several files per process, on every turn) cannot change the verdict, so it is skipped.
    ncpu, spawned = os.cpu_count() or 1, time.monotonic()
    try:
        proc = subprocess.Popen(cmd_for_rules(path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, bufsize=1)
        out = candidate_output(proc.stdout)
    except Exception as e:
        return dict(turns=None, outcome="bot did not start: %s" % e)
    last, done, t0 = [time.time()], threading.Event(), time.time()

    def watchdog():
        while not done.wait(0.25):
            if time.time() - last[0] > STALL or time.time() - t0 > MATCH_WALL:
                proc.kill()
                return

    threading.Thread(target=watchdog, daemon=True).start()

    def say(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    played, outcome, limit = [], "", r["width"] * r["height"]
    try:
        say("HELLO salvo 1 games=%d" % games)
        for g, fleet in enumerate(fleets, 1):
            sea = Sea(r, fleet)
            say("GAME %d" % g)
            t = 0
            while sea.afloat():
                t += 1
                if t > limit:
                    raise RuntimeError("game %d: turn limit" % g)
                if rng.random() < 0.15:
                    say("NOTE spectators=%d" % rng.randint(0, 500))
                k = sea.shots_due()
                say("TURN %d %d" % (t, k))
                line = out.readline()
                last[0] = time.time()
                used = cpu_seconds(proc.pid) if (time.monotonic() - spawned) * ncpu >= CPU_BUDGET / 2 else 0.0
                if not line:
                    raise RuntimeError("game %d: bot stopped answering at turn %d" % (g, t))
                if used is not None and used > CPU_BUDGET:
                    raise RuntimeError("game %d: CPU budget exceeded at turn %d" % (g, t))
                why = sea.legal(line.split(), k)
                if why:
                    say("LOST " + why.replace(" ", "_"))
                    raise RuntimeError("game %d: illegal move at turn %d: %s" % (g, t, why))
                say("RESULT " + " ".join("%s %s" % (c, sea.shoot(c)) for c in line.split()[1:]))
                if rng.random() < 0.1:
                    say("NOTE ping")
            say("WON %d" % t)
            played.append(t)
        say("BYE")
        outcome = "turns %s" % played
    except RuntimeError as e:
        outcome, played = str(e), None
    except (BrokenPipeError, OSError):
        outcome, played = "bot closed the pipe", None
    finally:
        done.set()
        try:
            proc.stdin.close()
        except Exception:
            pass
        try:
            proc.wait(timeout=2)
        except Exception:
            proc.kill()
    return dict(turns=played, outcome=outcome)
