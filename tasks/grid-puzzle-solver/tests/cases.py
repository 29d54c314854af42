"""Batches of puzzles and contestants' submissions, built from a random.Random.

A batch is a list of (name, pz dict, .pz text, status, least grid). The expected answers come
from ref.truth; an audit's expected rows from ref.verdict on submissions spoiled on purpose."""

import gen
import ref

NAMES = ["ada", "bela", "chen", "dara", "emil", "fion"]


def puzzle(rng, kind, n=None, sparse=False, spoil=False):
    pz = gen.build(rng, kind, n=n, sparse=sparse)
    if spoil:
        pz = gen.spoil(rng, pz)
    status, least = ref.truth(pz)
    return pz, status, least


def batch(rng, plan, prefix="p"):
    """plan: list of (kind, n, sparse, spoil)."""
    out = []
    for k, (kind, n, sparse, spoil) in enumerate(plan):
        pz, status, least = puzzle(rng, kind, n, sparse, spoil)
        name = "%s%02d" % (prefix, k + 1)
        out.append((name, pz, gen.to_text(rng, pz, "%s: %s puzzle" % (name, kind)), status, least))
    return out


def files(items):
    """{relative path: bytes} of a batch's puzzle files."""
    return {"%s.pz" % name: text.encode() for name, _, text, _, _ in items}


def answers(items):
    return {"%s.txt" % name: gen.answer_text(st, least, pz["n"]).encode()
            for name, pz, _, st, least in items}


def _rows(grid, n):
    return ["".join(str(v) for v in grid[r * n:(r + 1) * n]) for r in range(n)]


def spoilt_submission(rng, pz, status, least, how):
    """(status, grid rows) of one submission, right or spoilt in the way `how` says."""
    n = pz["n"]
    grid = list(least) if least else list(pz["sol"])
    free = [i for i in range(n * n) if not pz["giv"][i]]
    if how == "right" or status == "NONE" and how != "status":
        return status, (_rows(grid, n) if status != "NONE" else [])
    if how == "status":
        other = rng.choice([s for s in ("UNIQUE", "MULTIPLE", "NONE") if s != status])
        return other, (_rows(grid, n) if other != "NONE" else [])
    if how == "blank":
        i = rng.choice(free)
        rows = _rows(grid, n)
        r, c = divmod(i, n)
        rows[r] = rows[r][:c] + rng.choice(".0 ") + rows[r][c + 1:]
        if rng.random() < 0.3:
            rows = rows[:-1]
        return status, [x.replace(" ", ".") for x in rows]
    if how == "given":
        gv = [i for i in range(n * n) if pz["giv"][i]]
        if gv:
            i = rng.choice(gv)
            r = i // n
            j = rng.choice([r * n + c for c in range(n) if r * n + c != i])
            grid[i], grid[j] = grid[j], grid[i]
    elif how == "digit":
        i = rng.choice(free)
        grid[i] = rng.choice([d for d in range(1, n + 1) if d != grid[i]])
    elif how == "rowswap":
        r = rng.randrange(n)
        cells = [i for i in free if i // n == r]
        if len(cells) >= 2:
            i, j = rng.sample(cells, 2)
            grid[i], grid[j] = grid[j], grid[i]
    elif how in ("colswap", "farswap"):
        # swap two whole columns: of one box stack (rows, columns and boxes stay valid), or of
        # two stacks (the boxes break); the pair touching the fewest givens
        w = pz["box"][1] if pz["box"] else 1
        pairs = [(a, b) for a in range(n) for b in range(a + 1, n)
                 if (a // w == b // w) == (how == "colswap" and pz["box"] is not None)]
        rng.shuffle(pairs)
        a, b = min(pairs, key=lambda p: sum(1 for r in range(n) if pz["giv"][r * n + p[0]] or pz["giv"][r * n + p[1]]))
        for r in range(n):
            grid[r * n + a], grid[r * n + b] = grid[r * n + b], grid[r * n + a]
    elif how == "relabel":
        # swap two digits everywhere (rows, columns, regions stay valid; cage sums, signs and
        # thermometers break); digits that no given shows, when there are such
        shown = {v for v in pz["giv"] if v}
        pool = [d for d in range(1, n + 1) if d not in shown]
        x, y = rng.sample(pool if len(pool) >= 2 else list(range(1, n + 1)), 2)
        grid = [y if v == x else x if v == y else v for v in grid]
    elif how == "other":
        grid = list(pz["sol"])
    return status, _rows(grid, n)


def submission_text(rng, status, rows):
    lines = []
    if rng.random() < 0.3:
        lines.append("# submitted %02d:%02d" % (rng.randrange(24), rng.randrange(60)))
    lines.append(status if rng.random() < 0.8 else status.lower())
    lines += rows
    return ("\n".join(lines) + "\n").encode()


HOWS = ["right", "status", "blank", "given", "digit", "rowswap", "colswap", "colswap", "farswap", "relabel",
        "relabel", "other", "other"]


def contest(rng, items, people=3, cage_bias=False):
    """({relative path: bytes} of submissions, sorted expected audit rows). With cage_bias, half
    the submissions for puzzles with cages swap two digits everywhere (wrong cage sums)."""
    out, rows = {}, []
    who = sorted(rng.sample(NAMES, people))
    for person in who:
        for name, pz, _, status, least in items:
            if rng.random() < 0.15:
                continue           # no submission for this puzzle
            how = rng.choice(HOWS)
            if cage_bias and pz["cages"] and rng.random() < 0.5:
                how = "relabel"
            st, grid_rows = spoilt_submission(rng, pz, status, least, how)
            out["%s/%s.txt" % (person, name)] = submission_text(rng, st, grid_rows)
            v = ref.verdict(pz, status, least, st, grid_rows)
            if v:
                rows.append((person, name) + v)
    return out, sorted(rows)


def audit_csv(rows):
    return ("contestant,puzzle,reason,cell\n" + "".join("%s,%s,%s,%s\n" % r for r in rows)).encode()
