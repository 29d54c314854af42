#!/usr/bin/env python3
"""Haul bot: trip-by-trip planner. Each free truck picks the trip (mine, how long to mine, when it
can unload) with the best value per turn, using exact travel times (mud = 3 turns per step),
closure windows (both ends inclusive), the price schedule at the unload turn and ore already
promised to other trucks."""
import heapq
import sys

MOVES = (("N", 0, -1), ("S", 0, 1), ("E", 1, 0), ("W", -1, 0))
MUD_TURNS = 3
LAST_TURN_OFFSET = 1  # turns are numbered 0 .. TURNS-1
SETUP_WORDS = {"HAUL", "SIZE", "ROW", "DEPOT", "CAPACITY", "TURNS", "PRICE", "MINE", "TRUCK", "EVENT", "READY"}
TURN_WORDS = {"TURN", "TRUCK", "MINE", "SCORE", "GO", "GAMEOVER"}


def expect(k, words):
    """A line this bot cannot read means a stream it does not understand: stopping at once says
    so, where reading on would leave the engine waiting for an answer that never comes."""
    if k not in words:
        sys.exit("bot: unexpected line %r" % k[:40])


class World:
    def __init__(self):
        self.rows = []
        self.w = self.h = 0
        self.depot = None
        self.cap = 0
        self.turns = 0
        self.base = {}
        self.mines = {}
        self.trucks = []
        self.price_ev = []
        self.mine_shut = []
        self.depot_shut = []
        self._paths = {}

    def read(self, inp):
        for raw in inp:
            f = raw.split()
            if not f:
                continue
            k = f[0]
            expect(k, SETUP_WORDS)
            if k == "READY":
                break
            if k == "SIZE":
                self.w, self.h = int(f[1]), int(f[2])
            elif k == "ROW":
                self.rows.append(f[1])
            elif k == "DEPOT":
                self.depot = (int(f[1]), int(f[2]))
            elif k == "CAPACITY":
                self.cap = int(f[1])
            elif k == "TURNS":
                self.turns = int(f[1])
            elif k == "PRICE":
                self.base[f[1]] = int(f[2])
            elif k == "MINE":
                self.mines[int(f[1])] = {"pos": (int(f[2]), int(f[3])), "kind": f[4], "left": int(f[5]), "rate": int(f[6])}
            elif k == "TRUCK":
                self.trucks.append(int(f[1]))
            elif k == "EVENT" and f[1] == "PRICE":
                self.price_ev.append((int(f[2]), f[3], int(f[4])))
            elif k == "EVENT" and f[1] == "MINECLOSED":
                self.mine_shut.append((int(f[4]), int(f[2]), int(f[3])))
            elif k == "EVENT" and f[1] == "DEPOTCLOSED":
                self.depot_shut.append((int(f[2]), int(f[3])))
        self.price_ev.sort()

    def price(self, kind, t):
        p = self.base[kind]
        for when, k, v in self.price_ev:
            if k == kind and when <= t:
                p = v
        return p

    def mine_open(self, mid, t):
        for m, a, b in self.mine_shut:
            if m == mid and a <= t <= b:
                return False
        return True

    def depot_open(self, t):
        for a, b in self.depot_shut:
            if a <= t <= b:
                return False
        return True

    def step_cost(self, x, y):
        return MUD_TURNS if self.rows[y][x] == "~" else 1

    def paths_from(self, src):
        """Shortest turn counts and first-move trees from src (Dijkstra over enter costs)."""
        if src in self._paths:
            return self._paths[src]
        dist, prev = {src: 0}, {}
        pq = [(0, src)]
        while pq:
            d, (x, y) = heapq.heappop(pq)
            if d > dist[(x, y)]:
                continue
            for name, dx, dy in MOVES:
                nx, ny = x + dx, y + dy
                if 0 <= nx < self.w and 0 <= ny < self.h and self.rows[ny][nx] != "#":
                    nd = d + self.step_cost(nx, ny)
                    if nd < dist.get((nx, ny), 1 << 30):
                        dist[(nx, ny)] = nd
                        prev[(nx, ny)] = ((x, y), name)
                        heapq.heappush(pq, (nd, (nx, ny)))
        self._paths[src] = (dist, prev)
        return dist, prev

    def route(self, src, dst):
        dist, prev = self.paths_from(src)
        out, cur = [], dst
        while cur != src:
            cur, name = prev[cur]
            out.append(name)
        out.reverse()
        return out


class Planner:
    def __init__(self, world):
        self.wd = world
        self.plans = {}  # truck -> dict(queue of commands, mine, target, reserve)

    def reserved(self, mid, exclude):
        return sum(p["reserve"] for t, p in self.plans.items() if t != exclude and p.get("mine") == mid and p["reserve"] > 0)

    def first_open_depot(self, t):
        last = self.wd.turns - LAST_TURN_OFFSET
        while t <= last and not self.wd.depot_open(t):
            t += 1
        return t if t <= last else None

    def choose(self, tid, pos, t, load, amounts):
        wd = self.wd
        last = wd.turns - LAST_TURN_OFFSET
        carried = sum(load.values())
        best = None
        if carried:
            dd, _ = wd.paths_from(pos)
            if wd.depot in dd:
                u = self.first_open_depot(t + dd[wd.depot])
                if u is not None:
                    val = sum(load[k] * wd.price(k, u) for k in load)
                    best = (val / (u + 1 - t), -u, None, 0, 0)
        room = wd.cap - carried
        here, _ = wd.paths_from(pos)
        for mid in sorted(wd.mines):
            m = wd.mines[mid]
            avail = amounts[mid] - self.reserved(mid, tid)
            if avail <= 0 or room <= 0 or m["pos"] not in here:
                continue
            back, _ = wd.paths_from(m["pos"])
            if wd.depot not in back:
                continue
            want = min(avail, room)
            t_act = t + here[m["pos"]]
            got, cur, q = 0, t_act, 0
            while got < want and cur <= last:
                if wd.mine_open(mid, cur):
                    got = min(want, got + m["rate"])
                    u = self.first_open_depot(cur + 1 + back[wd.depot])
                    if u is not None:
                        val = sum(load[k] * wd.price(k, u) for k in load) + got * wd.price(m["kind"], u)
                        cand = (val / (u + 1 - t), -u, mid, got, cur)
                        if best is None or cand[:2] > best[:2]:
                            best = cand
                cur += 1
        return best

    def plan(self, tid, pos, t, load, amounts):
        best = self.choose(tid, pos, t, load, amounts)
        if best is None:
            self.plans[tid] = {"stage": "idle", "reserve": 0}
            return
        _, _, mid, q, finish = best
        if mid is None:
            self.plans[tid] = {"stage": "home", "moves": self.wd.route(pos, self.wd.depot), "reserve": 0}
            return
        m = self.wd.mines[mid]
        self.plans[tid] = {"stage": "out", "moves": self.wd.route(pos, m["pos"]), "mine": mid,
                           "target": sum(load.values()) + q, "finish": finish, "reserve": q}

    def command(self, tid, pos, busy, t, load, amounts):
        if busy:
            return None
        p = self.plans.get(tid)
        if p is None or p["stage"] == "idle" or p["stage"] == "done":
            self.plan(tid, pos, t, load, amounts)
            p = self.plans[tid]
        for _ in range(3):
            st = p["stage"]
            if st == "idle":
                return "WAIT"
            if st == "out":
                if p["moves"]:
                    return "MOVE " + p["moves"].pop(0)
                p["stage"] = "mine"
                continue
            if st == "mine":
                mid = p["mine"]
                if sum(load.values()) < p["target"] and amounts[mid] > 0 and t <= p["finish"]:
                    p["reserve"] = p["target"] - sum(load.values())
                    return "MINE"
                p["reserve"] = 0
                p["stage"] = "home"
                p["moves"] = self.wd.route(pos, self.wd.depot)
                continue
            if st == "home":
                if p["moves"]:
                    return "MOVE " + p["moves"].pop(0)
                p["stage"] = "unload"
                continue
            if st == "unload":
                if sum(load.values()) == 0:
                    self.plan(tid, pos, t, load, amounts)
                    p = self.plans[tid]
                    continue
                return "UNLOAD"
        return "WAIT"


def main():
    inp = sys.stdin
    wd = World()
    wd.read(inp)
    planner = Planner(wd)
    trucks, amounts, turn = {}, {}, 0
    for raw in inp:
        f = raw.split()
        if not f:
            continue
        k = f[0]
        expect(k, TURN_WORDS)
        if k == "GAMEOVER":
            break
        if k == "TURN":
            turn = int(f[1])
            trucks = {}
        elif k == "TRUCK":
            trucks[int(f[1])] = ((int(f[2]), int(f[3])), int(f[4]), {"A": int(f[5]), "B": int(f[6]), "C": int(f[7])})
        elif k == "MINE":
            amounts[int(f[1])] = int(f[2])
        elif k == "GO":
            out = []
            for tid in sorted(trucks):
                pos, busy, load = trucks[tid]
                c = planner.command(tid, pos, busy, turn, load, amounts)
                if c:
                    out.append("%d %s" % (tid, c))
            sys.stdout.write("".join(x + "\n" for x in out) + "DONE\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
