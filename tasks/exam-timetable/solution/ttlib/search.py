"""Timetable search: slots by min-conflicts local search with annealing, rooms packed per slot.

Exams tied by `same` move together; days an exam must avoid are never tried. The search stops
as soon as every hard rule holds and (when optimising) the back-to-back count reaches the
per-student floor, or when its CPU budget runs out (the best timetable found is returned).
"""
import math
import random
import time

HARD = 1000


def floor_for(k, days, slots, limit):
    """Least back-to-back pairs of one student with k exams (None when k cannot fit at all)."""
    cap = min(limit, slots)
    if k > cap * days:
        return None
    best = 0
    left = k
    for d in range(days):
        n = -(-left // (days - d))
        best += max(0, 2 * n - slots - 1)
        left -= n
    return best


class Packer:
    """Rooms of one slot: the exams' pieces, or how many exams could not be seated."""

    def __init__(self, inst, size, allowed):
        self.inst, self.size, self.allowed, self.memo = inst, size, allowed, {}
        self.rooms = sorted(inst.rooms.items(), key=lambda x: (-x[1], x[0]))

    def __call__(self, exams):
        key = frozenset(exams)
        if key not in self.memo:
            self.memo[key] = self.pack(sorted(key, key=lambda e: (self.allowed[e] > 1, -self.size[e], e)))
        return self.memo[key]

    def pack(self, order):
        left = dict(self.rooms)
        pieces, missed = {}, 0
        for e in order:
            need = self.size[e]
            whole = [r for r in left if left[r] >= need]
            if whole:
                r = min(whole, key=lambda x: (left[x], x))
                left[r] -= need
                pieces[e] = [(r, need)]
                continue
            parts = []
            for r in sorted(left, key=lambda x: (-left[x], x))[: self.allowed[e]]:
                take = min(need, left[r])
                if take:
                    parts.append((r, take))
                    need -= take
            if need:
                missed += 1
                continue
            for r, take in parts:
                left[r] -= take
            pieces[e] = parts
        if missed and len(order) > 1:
            # A second opinion: splittable exams first, then the rest by size.
            alt = sorted(order, key=lambda e: (self.allowed[e] == 1, -self.size[e], e))
            if alt != order:
                m2, p2 = self.pack_plain(alt, dict(self.rooms))
                if m2 < missed:
                    return m2, p2
        return missed, pieces

    def pack_plain(self, order, left):
        pieces, missed = {}, 0
        for e in order:
            need = self.size[e]
            parts = []
            for r in sorted(left, key=lambda x: (-left[x], x))[: self.allowed[e]]:
                take = min(need, left[r])
                if take:
                    parts.append((r, take))
                    need -= take
            if need:
                missed += 1
                continue
            for r, take in parts:
                left[r] -= take
            pieces[e] = parts
        return missed, pieces


class Search:
    def __init__(self, inst, seed=1, budget=20.0):
        self.inst, self.rng, self.budget = inst, random.Random(seed), budget
        self.S, self.D = inst.slots, inst.days
        self.T = self.S * self.D
        self.opt = inst.objective == "backtoback"
        self.exams = list(inst.exams)
        self.ix = {e: i for i, e in enumerate(self.exams)}
        size = inst.size()
        self.packer = Packer(inst, [size[e] for e in self.exams], [inst.rooms_allowed(e) for e in self.exams])
        # groups of exams tied by `same`
        parent = list(range(len(self.exams)))

        def root(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i
        for a, b in inst.same:
            parent[root(self.ix[a])] = root(self.ix[b])
        members = {}
        for i in range(len(self.exams)):
            members.setdefault(root(i), []).append(i)
        self.groups = list(members.values())
        self.group_of = [0] * len(self.exams)
        for g, ms in enumerate(self.groups):
            for i in ms:
                self.group_of[i] = g
        banned = {(self.ix[e], d) for e, d in inst.avoid if e in self.ix}
        self.domain = []
        for ms in self.groups:
            dom = [t for t in range(self.T) if not any((i, t // self.S + 1) in banned for i in ms)]
            self.domain.append(dom or list(range(self.T)))
        self.studs = [sorted(self.ix[c] for c in cs) for _, cs in sorted(inst.enrol.items())]
        self.takers = [[] for _ in self.exams]
        for s, cs in enumerate(self.studs):
            for i in cs:
                self.takers[i].append(s)
        self.group_studs = [sorted({s for i in ms for s in self.takers[i]}) for ms in self.groups]
        self.prec = [(self.ix[a], self.ix[b]) for a, b in inst.after]
        self.prec_of = [[] for _ in self.exams]
        for k, (a, b) in enumerate(self.prec):
            self.prec_of[a].append(k)
            self.prec_of[b].append(k)
        self.floor = sum(floor_for(len(cs), self.D, self.S, inst.maxperday) or 0 for cs in self.studs)

    # -- cost pieces ---------------------------------------------------------------------------

    def day_cost(self, row, d):
        S = self.S
        base = d * S
        n = clash = b2b = prev = 0
        for t in range(base, base + S):
            x = row[t]
            n += x
            if x > 1:
                clash += x - 1
            if x and prev:
                b2b += 1
            prev = x
        over = n - self.inst.maxperday
        return (clash + (over if over > 0 else 0)) * HARD + (b2b if self.opt else 0)

    def room_cost(self, t):
        return HARD * self.packer(self.in_slot[t])[0]

    def prec_cost(self, ks):
        at = self.at
        return HARD * sum(1 for k in ks if at[self.prec[k][0]] <= at[self.prec[k][1]])

    # -- state ---------------------------------------------------------------------------------

    def set_state(self, at):
        self.at = list(at)
        self.cnt = [[0] * self.T for _ in self.studs]
        for s, cs in enumerate(self.studs):
            for i in cs:
                self.cnt[s][self.at[i]] += 1
        self.in_slot = [[] for _ in range(self.T)]
        for i, t in enumerate(self.at):
            self.in_slot[t].append(i)

    def total(self):
        c = sum(self.day_cost(row, d) for row in self.cnt for d in range(self.D))
        c += sum(self.room_cost(t) for t in range(self.T))
        c += self.prec_cost(range(len(self.prec)))
        return c

    def apply(self, g, t):
        for i in self.groups[g]:
            old = self.at[i]
            if old == t:
                continue
            for s in self.takers[i]:
                self.cnt[s][old] -= 1
                self.cnt[s][t] += 1
            self.in_slot[old].remove(i)
            self.in_slot[t].append(i)
            self.at[i] = t

    def region_cost(self, moves):
        """Cost of everything the moves [(group, new slot)] touch, in the current state."""
        S = self.S
        studs, days, slots, ks = set(), set(), set(), set()
        for g, t in moves:
            studs.update(self.group_studs[g])
            slots.add(t)
            days.add(t // S)
            for i in self.groups[g]:
                slots.add(self.at[i])
                days.add(self.at[i] // S)
                ks.update(self.prec_of[i])
        return studs, days, slots, ks

    def cost_of(self, studs, days, slots, ks):
        c = 0
        for s in studs:
            row = self.cnt[s]
            for d in days:
                c += self.day_cost(row, d)
        for t in slots:
            c += self.room_cost(t)
        return c + self.prec_cost(ks)

    def try_moves(self, moves, temp):
        """Applies the moves when the annealing rule accepts them; returns the change in cost."""
        region = self.region_cost(moves)
        before = self.cost_of(*region)
        back = [(g, self.at[self.groups[g][0]]) for g, _ in moves]
        for g, t in moves:
            self.apply(g, t)
        dl = self.cost_of(*region) - before
        if dl <= 0 or (temp > 0 and self.rng.random() < math.exp(-dl / temp)):
            return dl
        for g, t in reversed(back):
            self.apply(g, t)
        return None

    # -- search --------------------------------------------------------------------------------

    def initial(self):
        self.set_state([0] * len(self.exams))
        for g in range(len(self.groups)):
            self.apply(g, self.rng.choice(self.domain[g]))

    def slot_of_group(self, g):
        return self.at[self.groups[g][0]]

    def propose(self):
        r = self.rng.random()
        G = len(self.groups)
        if r < 0.55:
            g = self.rng.randrange(G)
            t = self.rng.choice(self.domain[g])
            return [(g, t)] if t != self.slot_of_group(g) else None
        if r < 0.85:
            g, h = self.rng.randrange(G), self.rng.randrange(G)
            tg, th = self.slot_of_group(g), self.slot_of_group(h)
            if tg == th or th not in self.domain[g] or tg not in self.domain[h]:
                return None
            return [(g, th), (h, tg)]
        a, b = self.rng.randrange(self.T), self.rng.randrange(self.T)
        if a == b:
            return None
        ga = {self.group_of[i] for i in self.in_slot[a]}
        gb = {self.group_of[i] for i in self.in_slot[b]}
        moves = [(g, b) for g in ga] + [(g, a) for g in gb]
        if not moves or any(t not in self.domain[g] for g, t in moves):
            return None
        return moves

    def run(self):
        start = time.process_time()
        best_cost, best_at = None, None
        while True:
            self.initial()
            cost = self.total()
            temp, stale, step = 3.0, 0, 0
            while True:
                if best_cost is None or cost < best_cost:
                    best_cost, best_at = cost, list(self.at)
                    stale = 0
                if best_cost < HARD and (not self.opt or best_cost <= self.floor):
                    return best_at, best_cost
                step += 1
                if step % 64 == 0 and time.process_time() - start > self.budget:
                    return best_at, best_cost
                moves = self.propose()
                if moves is None:
                    continue
                dl = self.try_moves(moves, temp)
                if dl is not None:
                    cost += dl
                temp = max(0.08, temp * 0.9995)
                stale += 1
                # A fresh start after 5,000 moves without a new best: a run that reaches the floor at
                # all reaches it in a few restarts, while waiting 20,000 left a few instances in a
                # hundred stuck past the CPU budget.
                if stale > 5000:
                    break

    def solve(self):
        at, cost = self.run()
        self.set_state(at)
        rows = []
        for t in range(self.T):
            _, pieces = self.packer(self.in_slot[t])
            day, slot = self.inst.slot_of(t)
            for i in sorted(self.in_slot[t]):
                e = self.exams[i]
                for room, seats in pieces.get(i, []):
                    rows.append((e, day, slot, room, seats))
        return rows, cost
