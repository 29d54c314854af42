"""Slot-assignment puzzles: parse, encode to CNF, decode."""
from . import card, dpll


class PuzzleError(ValueError):
    pass


class Puzzle:
    def __init__(self):
        self.slots = []
        self.items = []
        self.cap = None
        self.slot_cap = {}
        self.mins = {}
        self.apart = []
        self.same = []
        self.before = []
        self.avoid = {}
        self.only = {}


def parse(text):
    p = Puzzle()
    stmts = []
    for raw in text.splitlines():
        if raw.startswith("#"):
            continue
        toks = raw.split()
        if not toks:
            continue
        key = toks[0]
        args = toks[1:]
        if key == "slots":
            p.slots += args
        elif key == "items":
            p.items += args
        else:
            stmts.append((key, args))
    slot_set, item_set = set(p.slots), set(p.items)

    def need(names, pool):
        for n in names:
            if n not in pool:
                raise PuzzleError("unknown name %r" % n)

    for key, args in stmts:
        if key == "cap":
            p.cap = int(args[-1])
        elif key == "min" and len(args) == 2:
            need(args[:1], slot_set)
            p.mins[args[0]] = int(args[1])
        elif key in ("apart", "same", "before") and len(args) == 2:
            need(args, item_set)
            getattr(p, key).append((args[0], args[1]))
        elif key in ("avoid", "only") and len(args) >= 2:
            need(args[:1], item_set)
            need(args[1:], slot_set)
            getattr(p, key)[args[0]] = set(args[1:])
        else:
            raise PuzzleError("bad statement %r" % key)
    return p


def encode(p):
    S = len(p.slots)
    sidx = {s: i for i, s in enumerate(p.slots)}
    iidx = {s: i for i, s in enumerate(p.items)}

    def x(item, slot):
        return iidx[item] * S + sidx[slot] + 1

    pool = card.Pool(len(p.items) * S)
    cls = []
    for it in p.items:
        row = [x(it, s) for s in p.slots]
        cls += card.at_least_one(row) + card.at_most_one(row)
    for s in p.slots:
        col = [x(it, s) for it in p.items]
        limit = p.slot_cap.get(s, p.cap)
        if limit is not None:
            cls += card.at_most_k(col, limit, pool)
        if s in p.mins:
            cls += card.at_least_k(col, p.mins[s], pool)
    for a, b in p.apart:
        cls += [[-x(a, s), -x(b, s)] for s in p.slots]
    for a, b in p.same:
        cls += [[-x(a, s), x(b, s)] for s in p.slots]
    for a, b in p.before:
        for i, sa in enumerate(p.slots):
            for sb in p.slots[:i]:
                cls.append([-x(a, sa), -x(b, sb)])
    for it, bad in p.avoid.items():
        cls += [[-x(it, s)] for s in bad]
    for it, ok in p.only.items():
        cls += [[-x(it, s)] for s in p.slots if s not in ok]
    return pool.top, cls, x


def solve(p):
    """The assignment that is least by the tie rule, as [(item, slot)], or None."""
    nvars, cls, x = encode(p)
    model = dpll.solve(nvars, cls)
    if model is None:
        return None
    true = set(lit for lit in model if lit > 0)
    return [(it, s) for it in p.items for s in p.slots if x(it, s) in true]


def answer_text(answer):
    if answer is None:
        return "INFEASIBLE\n"
    return "".join("%s %s\n" % pair for pair in answer)
