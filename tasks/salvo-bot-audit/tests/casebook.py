"""Hidden cases built by construction: rules files for `count`, tournament logs for `replay` and
`audit` with their expected outputs. Everything here is the grader's own bookkeeping (bitmasks
over geometry.Board), never the shipped package or the solution."""
import random

from geometry import COLS, Board, name, shape_points, unname, variants

SHAPES = [("boat", "##"), ("cruiser", "###"), ("tee", "###/.#."), ("ell", "#../###"), ("zig", "##./.##"),
          ("hook", "##/#."), ("jay", "..#/###"), ("block", "##/##"), ("long", "####"), ("step", "#./##/.#")]


def cellnames(board, mask):
    return " ".join(name(z) for z in sorted(board.points(mask), key=lambda z: (z.imag, z.real)))


def rules_text(r, extra=()):
    lines = ["# rules", "board = %dx%d" % (r["width"], r["height"])]
    if r["blocked"]:
        lines.append("blocked = " + " ".join(name(z) for z in r["blocked"]))
    lines += ["%s = %s" % (k, r[k]) for k in ("rotate", "touch", "salvo", "sunk")]
    lines += ["ship %s = %s" % s for s in r["ships"]]
    lines += list(extra)
    return "\n".join(lines) + "\n"


def draw_rules(rng, w, h, nships, nblocked, chiral=True):
    cells = [complex(x, y) for y in range(h) for x in range(w)]
    pool = list(SHAPES)
    rng.shuffle(pool)
    ships = pool[:nships]
    if chiral and not any(s[1] in ("#../###", "##./.##", "..#/###", "#./##/.#") for s in ships):
        ships[0] = rng.choice([("ell", "#../###"), ("zig", "##./.##"), ("jay", "..#/###"), ("step", "#./##/.#")])
    return dict(width=w, height=h, ships=ships, rotate=rng.choice(["no", "yes", "mirror", "mirror", "yes"]),
                touch=rng.choice(["yes", "edge", "corner"]), salvo=rng.choice(["no", "yes"]),
                sunk=rng.choice(["named", "plain", "silent"]),
                blocked=sorted(rng.sample(cells, nblocked), key=lambda z: (z.imag, z.real)))


def place(r, board, rng, tries=200):
    """A legal fleet [(name, mask)] or None."""
    for _ in range(tries):
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
    return None


# ---------------------------------------------------------------- count

def fleet_ways(board, r, forbidden, need):
    """Assignments of one spot per ship (ships told apart), apart under the touch rule, covering
    every cell of `need`: depth-first over bitmasks."""
    spots = [board.spots(p, r["rotate"], forbidden) for _, p in r["ships"]]
    zones = [{m: board.zone(m, r["touch"]) for m in s} for s in spots]
    total = 0
    stack = [(0, 0, 0)]
    while stack:
        i, cover, ban = stack.pop()
        if i == len(spots):
            total += (cover & need) == need
            continue
        for m in spots[i]:
            if not m & ban:
                stack.append((i + 1, cover | m, ban | zones[i][m]))
    return total


def count_case(seed, small, force=None, dims=None):
    rng = random.Random("count/%s" % seed)
    while True:
        if small:
            w, h = dims or rng.choice([(5, 5), (5, 6), (6, 5), (4, 7), (6, 4), (4, 6), (6, 6)])
            r = draw_rules(rng, w, h, rng.randint(2, 3), rng.randint(0, 3))
        else:
            w, h = dims or rng.choice([(9, 11), (10, 12), (12, 10), (8, 11), (11, 10), (10, 11)])
            r = draw_rules(rng, w, h, rng.randint(3, 5), rng.randint(3, 8))
        r.update(force or {})
        board = Board(w, h, r["blocked"])
        truth = place(r, board, rng)
        if truth:
            break
    ships = 0
    for _, m in truth:
        ships |= m
    open_cells = [z for z in board.points((1 << (w * h)) - 1) if not board.bit(z) & (board.blocked | ships)]
    misses = rng.sample(open_cells, min(len(open_cells), rng.randint(2, 6 if small else 14)))
    ship_cells = board.points(ships)
    hits = rng.sample(ship_cells, min(len(ship_cells), rng.randint(2, 3) if small else rng.randint(1, 4)))
    miss_mask, hit_mask = board.mask(misses), board.mask(hits)
    extra = ["miss = " + " ".join(name(z) for z in misses), "hit = " + " ".join(name(z) for z in hits)]
    text = rules_text(r, extra)
    want = ["%s %d" % (s, len(board.spots(p, r["rotate"], miss_mask))) for s, p in r["ships"]]
    if w * h <= 36:
        want.append("fleet %d" % fleet_ways(board, r, miss_mask, hit_mask))
    else:
        want.append("fleet skipped")
    return text, want


# ---------------------------------------------------------------- games

class Side:
    def __init__(self, board, r):
        self.board, self.r = board, r
        self.ships = []          # [name, mask, unhit mask]
        self.fired = 0

    def add(self, ship, mask):
        self.ships.append([ship, mask, mask])

    def afloat(self):
        return sum(1 for s in self.ships if s[2])

    def call(self, z):
        """The true call for a shot at z (a cell of two overlapping ships sinks either)."""
        b = self.board.bit(z) if self.board.inside(z) else 0
        self.fired |= b
        struck, sank = False, []
        for s in self.ships:
            if s[1] & b:
                struck = True
                if s[2]:
                    s[2] &= ~b
                    if not s[2]:
                        sank.append(s[0])
        if not struck:
            return "miss"
        if sank and self.r["sunk"] != "silent":
            return ("sunk:" + sank[0]) if self.r["sunk"] == "named" else "sunk"
        return "hit"


def illegal_spot(r, board, rng, ship, pattern, used_masks):
    """A mask for this ship breaking exactly one placement rule, or None."""
    kinds = ["shape", "blocked", "overlap", "touch"]
    rng.shuffle(kinds)
    if r["touch"] == "corner":
        kinds = ["diagonal"] + kinds
    edge_near = 0
    for m in used_masks:
        edge_near |= board.zone(m, "edge")
    legal_v = variants(pattern, r["rotate"])
    allv = variants(pattern, "mirror")
    near = 0
    for m in used_masks:
        near |= board.zone(m, r["touch"])
    allused = 0
    for m in used_masks:
        allused |= m
    for kind in kinds:
        cands = []
        for v in allv:
            for y in range(board.h):
                for x in range(board.w):
                    pts = [p + complex(x, y) for p in v]
                    if not all(board.inside(p) for p in pts):
                        continue
                    m = board.mask(pts)
                    on_block = bool(m & board.blocked)
                    shape_ok = v in legal_v
                    if kind == "shape" and not shape_ok and not on_block and not m & near:
                        cands.append(m)
                    elif kind == "blocked" and shape_ok and on_block and not m & near:
                        cands.append(m)
                    elif kind == "overlap" and shape_ok and not on_block and m & allused:
                        cands.append(m)
                    elif kind == "touch" and shape_ok and not on_block and m & near and not m & allused:
                        cands.append(m)
                    elif kind == "diagonal" and shape_ok and not on_block and m & near and not m & edge_near:
                        cands.append(m)
        if cands:
            return sorted(set(cands))[rng.randrange(len(set(cands)))]
    return None


def build_game(seed, plant, force=None, refire=0.12, dims=None):
    """A tournament log and its expected replay lines and audit rows.
    plant: a set of error kinds to plant (empty for a legal game)."""
    rng = random.Random("game/%s" % seed)
    while True:
        w, h = dims or (rng.randint(7, 11), rng.randint(7, 12))
        r = draw_rules(rng, w, h, rng.randint(3, 4), rng.randint(0, 4))
        r.update(force or {})
        board = Board(w, h, r["blocked"])
        fleets = {p: place(r, board, rng) for p in "AB"}
        if all(fleets.values()):
            break
    rules_name = "r%s.rules" % seed
    lines = ["# tournament log", "RULES " + rules_name]
    rows = []
    sides = {"A": Side(board, r), "B": Side(board, r)}
    # placements; one illegal placement replaces a ship's spot when planted
    bad = None
    if "placement" in plant:
        bad = (rng.choice("AB"), len(r["ships"]) - 1)   # the last ship: later ones cannot touch it
    for p in "AB":
        used = []
        for i, (ship, pattern) in enumerate(r["ships"]):
            m = fleets[p][i][1]
            if bad == (p, i):
                alt = illegal_spot(r, board, rng, ship, pattern, used)
                if alt is not None:
                    m = alt
                    rows.append((len(lines) + 1, "ILLEGAL_PLACEMENT"))
            used.append(m)
            sides[p].add(ship, m)
            lines.append("PLACE %s %s %s" % (p, ship, cellnames(board, m)))
    # play: each player shoots a shuffled order of its targets, sometimes re-firing at hit cells
    orders = {}
    for p in "AB":
        cells = [complex(x, y) for y in range(h) for x in range(w)]
        cells = [z for z in cells if not board.bit(z) & board.blocked]
        rng.shuffle(cells)
        orders[p] = cells
    hit_cells = {"A": [], "B": []}
    replay, k, mover, winner = [], 0, "A", None
    budget = rng.randint(25, 70) if rng.random() < 0.3 and "after_end" not in plant else 10 ** 6
    errs = {e for e in plant if e != "placement"}
    slots = {e: rng.randint(3, 14) for e in sorted(errs)}
    turn = 0
    while winner is None and turn < budget:
        turn += 1
        foe = "B" if mover == "A" else "A"
        due = sides[mover].afloat() if r["salvo"] == "yes" else 1
        if slots.get("out_of_turn") == turn:
            # the player who just moved fires again, at every unshot cell of the mover's ship
            # nearest to sinking (counted, those shots would sink it)
            shooter = foe
            live = [s for s in sides[mover].ships if s[2]]
            target = min(live, key=lambda s: (bin(s[2]).count("1"), s[0]))
            cells = sorted(board.points(target[2]), key=lambda z: (z.imag, z.real))
            lines.append("FIRE %s %s" % (shooter, " ".join(name(z) for z in cells)))
            rows.append((len(lines), "OUT_OF_TURN"))
            lines.append("CALL " + " ".join(rng.choice(["hit", "miss"]) for _ in cells))
        size = due
        if slots.get("salvo") == turn:
            size = due + 1 if (due == 1 or rng.random() < 0.5) else due - 1   # never 0 cells
        cells = []
        while len(cells) < size:
            if hit_cells[mover] and rng.random() < refire:
                cells.append(rng.choice(hit_cells[mover]))
            elif orders[mover]:
                cells.append(orders[mover].pop(0))
            else:
                cells.append(complex(rng.randrange(w), rng.randrange(h)))
        lines.append("FIRE %s %s" % (mover, " ".join(name(z) for z in cells)))
        if size != due:
            rows.append((len(lines), "WRONG_SALVO"))
        k += 1
        calls = [sides[foe].call(z) for z in cells]
        for z, c in zip(cells, calls):
            if c != "miss":
                hit_cells[mover].append(z)
        replay.append("%d %s %d %s" % (k, mover, due, " ".join(calls)))
        shown = list(calls)
        if slots.get("call") == turn:
            i = rng.randrange(len(shown))
            shown[i] = {"miss": "hit", "hit": rng.choice(["miss", "sunk:" + r["ships"][0][0], "sunk"])}.get(shown[i], "hit")
            rows.append((len(lines) + 1, "WRONG_CALL"))
        lines.append("CALL " + " ".join(shown))
        if not sides[foe].afloat():
            winner = mover
        mover = foe
    if winner is not None and "after_end" in plant:
        late = "B" if winner == "A" else "A"
        z = orders[late][0] if orders[late] else complex(0, 0)
        lines.append("FIRE %s %s" % (late, name(z)))
        rows.append((len(lines), "OUT_OF_TURN"))
        lines.append("CALL miss")
    said = winner or "none"
    if "winner" in plant:
        said = rng.choice([x for x in ("A", "B", "none") if x != (winner or "none")])
        rows.append((len(lines) + 1, "WRONG_WINNER"))
    lines.append("WINNER " + said)
    replay.append("winner %s" % (winner or "none"))
    return rules_name, rules_text(r), "\n".join(lines) + "\n", replay, rows
