"""Runs one episode: starts the bot process, speaks the line protocol, applies the rules."""
import os, subprocess, threading, time

from . import rules, world
try:
    # Under the grader: what the program prints is read as its output (lh.candidate_output), so
    # the grader's time spent on a flood of it is held against the program, not the grader.
    from lh import candidate_output
except ImportError:  # run on its own, outside the grader
    def candidate_output(stream):
        return stream

STALL = 30.0  # wall seconds one answer may take before the bot counts as hung


def cpu_seconds(pid):
    """CPU time (user + system) of the process and its descendants; None without /proc."""
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


def parse_commands(lines, game):
    """Bot lines 'ID ACTION [ARG]' -> {id: 'ACTION ARG'}; unknown trucks and junk are ignored, the
    first command for a truck wins."""
    cmds = {}
    for line in lines:
        words = line.split()
        if len(words) < 2:
            continue
        try:
            tid = int(words[0])
        except ValueError:
            continue
        if tid in game.trucks and tid not in cmds:
            cmds[tid] = " ".join(words[1:3])
    return cmds


def run_episode(mode, seed, cmd, cpu_budget=10.0, log=None):
    """Play one episode; returns {score, outcome, turns_played}. log: a writable text file or None."""
    game = rules.Game(world.generate(mode, seed))
    t0 = time.time()
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        out = candidate_output(proc.stdout)
    except Exception as e:
        return dict(score=0, outcome="bot did not start: %s" % e, turns_played=0)
    last, done = [time.time()], threading.Event()

    def watchdog():
        while not done.wait(0.5):
            if time.time() - last[0] > STALL:
                proc.kill()
                return

    threading.Thread(target=watchdog, daemon=True).start()

    def send(lines):
        if log:
            log.write("".join("< %s\n" % l for l in lines))
        proc.stdin.write("".join(l + "\n" for l in lines))
        proc.stdin.flush()

    outcome = "completed"
    try:
        send(game.setup_lines())
        while not game.over():
            send(game.state_lines())
            got = []
            while True:
                line = out.readline()
                if not line:
                    break
                line = line.strip()
                if line == "DONE":
                    break
                got.append(line)
                if len(got) > 1000:
                    break
            last[0] = time.time()
            used = cpu_seconds(proc.pid)
            if not line or (used if used is not None else last[0] - t0) > cpu_budget:
                outcome = "bot stopped answering at turn %d" % game.turn
                break
            if log:
                log.write("".join("> %s\n" % l for l in got + ["DONE"]))
            game.play_turn(parse_commands(got, game))
        try:
            send(["GAMEOVER %d" % game.score])
        except Exception:
            pass
    except (BrokenPipeError, OSError):
        outcome = "bot closed the pipe at turn %d" % game.turn
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
    return dict(score=game.score, outcome=outcome, turns_played=game.turn)
