"""The grader's yardstick: a reference dispatcher played in-process on the grader's own engine copy.

Method (independent of any submitted bot): reverse Dijkstra builds, for the depot and every mine, a
cost-to-go table over all cells plus the move that follows it; each free truck is dispatched on the
trip (mine, number of mining turns) with the most value per elapsed turn, where the value is priced
at the turn the truck can first unload (closures skipped) and ore promised to other trucks is not
counted twice. Its score is the bar an episode is measured against.
"""
import heapq
import sys

sys.path.insert(0, "/tests")
from haul import rules  # noqa: E402

STEP = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}


def togo_table(rows, target):
    """cell -> (turns to reach target, first move) for every cell that can reach target."""
    h, w = len(rows), len(rows[0])
    enter = lambda x, y: 3 if rows[y][x] == "~" else 1  # noqa: E731  (MOVE plus rules.MUD_EXTRA busy turns)
    best = {target: (0, None)}
    heap = [(0, target)]
    while heap:
        d, (nx, ny) = heapq.heappop(heap)
        if d != best[(nx, ny)][0]:
            continue
        # Any passable neighbour c of n can step into n at the cost of entering n.
        for name, (dx, dy) in STEP.items():
            cx, cy = nx - dx, ny - dy
            if 0 <= cx < w and 0 <= cy < h and rows[cy][cx] != "#":
                nd = d + enter(nx, ny)
                old = best.get((cx, cy))
                if old is None or nd < old[0]:
                    best[(cx, cy)] = (nd, name)
                    heapq.heappush(heap, (nd, (cx, cy)))
    return best


class Dispatcher:
    def __init__(self, game):
        self.g = game
        self.tables = {"depot": togo_table(game.rows, game.depot)}
        for mid, m in game.mines.items():
            self.tables[mid] = togo_table(game.rows, (m["x"], m["y"]))
        self.job = {}  # truck -> [phase, mine, goal load, last mining turn, promised]
        self.changes = {}
        for e in game.events:
            if e["type"] == "PRICE":
                self.changes.setdefault(e["kind"], []).append((e["t"], e["value"]))
        self.start_prices = dict(game.world["prices"])

    def value_at(self, kind, turn):
        v = self.start_prices[kind]
        for when, val in sorted(self.changes.get(kind, ())):
            if when > turn:
                break
            v = val
        return v

    def unload_turn(self, arrive):
        u = arrive
        while u < self.g.turns and self.g.depot_closed(u):
            u += 1
        return u if u < self.g.turns else None

    def promised(self, mid, me):
        return sum(j[4] for k, j in self.job.items() if k != me and j[1] == mid)

    def dispatch(self, tid, now):
        g, tr = self.g, self.g.trucks[tid]
        here = (tr["x"], tr["y"])
        held = dict(tr["load"])
        space = g.capacity - sum(held.values())
        worth = lambda turn, extra_kind, extra: sum(held[k] * self.value_at(k, turn) for k in held) + (extra * self.value_at(extra_kind, turn) if extra else 0)  # noqa: E731
        options = []
        home = self.tables["depot"].get(here)
        if sum(held.values()) and home is not None:
            u = self.unload_turn(now + home[0])
            if u is not None:
                options.append((worth(u, "A", 0) / (u - now + 1), -u, 1, -1, 0, 0))
        for mid in sorted(g.mines):
            m = g.mines[mid]
            free = m["amount"] - self.promised(mid, tid)
            there = self.tables[mid].get(here)
            back = self.tables["depot"].get((m["x"], m["y"]))
            if free <= 0 or space <= 0 or there is None or back is None:
                continue
            cap_take = min(free, space)
            turn, taken = now + there[0], 0
            while taken < cap_take and turn < g.turns:
                if not g.mine_closed(mid, turn):
                    taken = min(cap_take, taken + m["rate"])
                    u = self.unload_turn(turn + 1 + back[0])
                    if u is not None:
                        options.append((worth(u, m["kind"], taken) / (u - now + 1), -u, 0, mid, taken, turn))
                turn += 1
        if not options:
            self.job[tid] = ["rest", None, 0, 0, 0]
            return
        # Highest value rate; then the earliest unload; then a mining trip before going home; lowest mine id.
        options.sort(key=lambda o: (-o[0], -o[1], o[2], o[3]))
        rate, _, homeward, mid, taken, last = options[0]
        if homeward:
            self.job[tid] = ["home", None, 0, 0, 0]
        else:
            self.job[tid] = ["go", mid, sum(held.values()) + taken, last, taken]

    def orders(self):
        g, now, out = self.g, self.g.turn, {}
        for tid in sorted(g.trucks):
            tr = g.trucks[tid]
            if tr["busy"]:
                continue
            here, held = (tr["x"], tr["y"]), sum(tr["load"].values())
            if tid not in self.job or self.job[tid][0] == "rest":
                self.dispatch(tid, now)
            for _ in range(4):
                job = self.job[tid]
                if job[0] == "rest":
                    out[tid] = "WAIT"
                    break
                if job[0] == "go":
                    if here != (g.mines[job[1]]["x"], g.mines[job[1]]["y"]):
                        out[tid] = "MOVE " + self.tables[job[1]][here][1]
                        break
                    job[0] = "dig"
                if job[0] == "dig":
                    if held < job[2] and g.mines[job[1]]["amount"] > 0 and now <= job[3]:
                        job[4] = job[2] - held
                        out[tid] = "MINE"
                        break
                    job[0], job[1], job[4] = "home", None, 0
                if job[0] == "home":
                    if here != g.depot:
                        out[tid] = "MOVE " + self.tables["depot"][here][1]
                        break
                    if held:
                        out[tid] = "UNLOAD"
                        break
                    self.dispatch(tid, now)
        return out


def reference_score(world):
    game = rules.Game(world)
    d = Dispatcher(game)
    while not game.over():
        game.play_turn(d.orders())
    return game.score
