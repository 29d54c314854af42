"""Plays seeded hidden episodes of the grader's own engine copy with /app/bot.py, measures each
against the grader's reference dispatcher (yardstick.py), and probes the repaired /app/client.py."""
import json, os, sys
sys.path.insert(0, "/tests")
from lh import SEED, STOP_AT_FIRST_FAILURE, WORK, Grader, generate, rng_for, run, sealed_argv
from haul import referee, rules, world
from probe_src import PROBE
import yardstick

g = Grader()
# The bot runs sealed: no /tests (the engine copy, seeds and yardstick), no seed, no reward files.
CMD = sealed_argv(["python3", os.path.join(WORK, "bot.py")])
FULL, ZERO = 0.95, 0.75  # an episode scores 1 at >= 95% of the yardstick, 0 at <= 75%, linear between


def episode(mode, seed):
    w = generate(world.generate, mode, seed)
    g.digest(json.dumps(w, sort_keys=True))
    ref = generate(yardstick.reference_score, w)
    r = referee.run_episode(mode, seed, CMD, cpu_budget=10.0)
    ratio = r["score"] / ref if ref > 0 else 1.0
    return min(1.0, max(0.0, (ratio - ZERO) / (FULL - ZERO))), "%s/%s %d of %d (%s)" % (mode, seed, r["score"], ref, r["outcome"])


def episodes(mode, n):
    def fn():
        res = [episode(mode, "h%d-%d" % (SEED, i)) for i in range(n)]
        return sum(s for s, _ in res) / n, "; ".join(m for _, m in res)
    return fn


def public():
    res = []
    for s in ("1", "2"):
        res.append(episode("plain", s))
        # A run that only has to show a score below 1 need not wait out a hung bot's second stall.
        if STOP_AT_FIRST_FAILURE and res[-1][0] != 1.0:
            break
    return float(all(s == 1.0 for s, _ in res)), "; ".join(m for _, m in res)


def probe_case():
    """A hidden world with price changes and closures, the probe's queries, and the true answers."""
    rng = rng_for("client_repair")
    w = world.generate("market", "p%d" % SEED)
    extra = world.generate("closures", "p%d" % SEED)["events"]
    w["events"] = sorted(w["events"] + [e for e in extra if e["type"] == "DEPOTCLOSED" or e["id"] < len(w["mines"])],
                         key=lambda e: (e.get("t", e.get("t0")), e["type"]))
    game = rules.Game(w)
    at = [rng.int(1, w["width"] - 2), rng.int(1, w["height"] - 2)]
    price_turns = sorted({x for e in w["events"] if e["type"] == "PRICE" for x in (e["t"] - 1, e["t"], e["t"] + 1)} | {0})
    mine_q = [[e["id"], x] for e in w["events"] if e["type"] == "MINECLOSED" for x in (e["t0"] - 1, e["t0"], e["t1"], e["t1"] + 1)]
    depot_t = [x for e in w["events"] if e["type"] == "DEPOTCLOSED" for x in (e["t0"] - 1, e["t0"], e["t1"], e["t1"] + 1)]
    # One played turn so the state block is not the trivial start.
    game.play_turn({i: "MOVE " + rng.pick("NESW") for i in game.trucks})
    text = "\n".join(game.setup_lines() + game.state_lines() + ["GAMEOVER 0"]) + "\n"
    # Truth, from the rules: a price event at turn t applies to that turn; closures include both ends.
    prices = {}
    for k in "ABC":
        row = []
        for t in price_turns:
            p = w["prices"][k]
            for e in w["events"]:
                if e["type"] == "PRICE" and e["kind"] == k and e["t"] <= t:
                    p = e["value"]
            row.append(p)
        prices[k] = row
    d = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
    truth = {
        "mines": {str(m["id"]): [m["x"], m["y"], m["kind"], m["amount"], m["rate"]] for m in w["mines"]},
        "steps": {k: [at[0] + v[0], at[1] + v[1]] for k, v in d.items()},
        "prices": prices,
        "mine_closed": [game.mine_closed(i, t) for i, t in mine_q],
        "depot_closed": [game.depot_closed(t) for t in depot_t],
        "turn": [game.turn, {str(i): [t["x"], t["y"], t["busy"], t["load"]["A"], t["load"]["B"], t["load"]["C"]] for i, t in game.trucks.items()},
                 {str(i): m["amount"] for i, m in game.mines.items()}, game.score],
    }
    query = {"at": at, "price_turns": price_turns, "mine_queries": mine_q, "depot_turns": depot_t}
    return text, query, truth


def client_repair():
    text, query, truth = generate(probe_case)
    g.digest(text)
    code, out, err = run(["python3", "-c", PROBE, json.dumps(query)], stdin=text, timeout=20)
    if code != 0:
        return 0.0, "probe failed (exit %d): %s" % (code, err.strip().splitlines()[-1:] if err.strip() else "")
    got = json.loads(out.strip().splitlines()[-1])
    if got.get("turn") != truth["turn"]:
        return 0.0, "turn state misread"
    parts = {"mines": got.get("mines") == truth["mines"], "steps": got.get("steps") == truth["steps"],
             "prices": got.get("prices") == truth["prices"],
             "closures": got.get("mine_closed") == truth["mine_closed"] and got.get("depot_closed") == truth["depot_closed"]}
    return sum(parts.values()) / len(parts), "correct: %s" % ", ".join("%s=%s" % kv for kv in sorted(parts.items()))


g.check("public_practice", public)
g.check("client_repair", client_repair)
g.check("hidden_plain", episodes("plain", 3))
g.check("hidden_fleet", episodes("fleet", 3))
g.check("hidden_market", episodes("market", 3))
g.check("hidden_closures", episodes("closures", 3))
g.finish()
