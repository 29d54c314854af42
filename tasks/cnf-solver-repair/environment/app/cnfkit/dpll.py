"""DPLL with unit propagation and pure-literal elimination (SPEC.md, section 2)."""
import sys

sys.setrecursionlimit(10000)


def _value(lit, assign):
    v = assign.get(abs(lit))
    if v is None:
        return None
    return v if lit > 0 else not v


def _propagate(clauses, assign, trail):
    """Unit propagation to a fixpoint; False on a falsified clause."""
    changed = True
    while changed:
        changed = False
        for c in clauses:
            free = None
            nfree = 0
            satisfied = False
            for lit in c:
                val = _value(lit, assign)
                if val is True:
                    satisfied = True
                    break
                if val is None:
                    nfree += 1
                    free = lit
            if satisfied:
                continue
            if nfree == 0:
                return False
            if nfree == 1:
                assign[abs(free)] = free > 0
                trail.append(abs(free))
                changed = True
    return True


def _open_clauses(clauses, assign):
    """Clauses not yet satisfied, with their unassigned literals."""
    out = []
    for c in clauses:
        if any(_value(lit, assign) is True for lit in c):
            continue
        out.append([lit for lit in c if abs(lit) not in assign])
    return out


def _pure_literals(clauses, assign):
    seen = set()
    for c in clauses:
        if any(abs(lit) in assign for lit in c):
            continue  # already decided
        seen.update(c)
    return sorted(lit for lit in seen if -lit not in seen)


def _choose(open_clauses):
    """Jeroslow-Wang: the literal with the largest sum of 2^-len over open clauses."""
    score = {}
    for c in open_clauses:
        w = 2.0 ** -len(c)
        for lit in c:
            score[lit] = score.get(lit, 0.0) + w
    best = None
    for lit in sorted(score, key=lambda x: (abs(x), x)):
        if best is None or score[lit] > score[best]:
            best = lit
    return best


def _search(clauses, assign):
    trail = []
    ok = _propagate(clauses, assign, trail)
    while ok:
        open_clauses = _open_clauses(clauses, assign)
        pure = _pure_literals(clauses, assign)
        if not pure:
            break
        for lit in pure:
            assign[abs(lit)] = lit > 0
            trail.append(abs(lit))
        ok = _propagate(clauses, assign, trail)
    if ok and not open_clauses:
        return True
    if ok:
        lit = _choose(open_clauses)
        for choice in (lit, -lit):
            assign[abs(choice)] = choice > 0
            if _search(clauses, assign):
                return True
            del assign[abs(choice)]
    return False


def solve(nvars, clauses, assumptions=()):
    """A model as a list of nvars literals (1..nvars in order), or None when unsatisfiable."""
    assign = {}
    for lit in assumptions:
        if assign.get(abs(lit), lit > 0) != (lit > 0):
            return None
        assign[abs(lit)] = lit > 0
    if any(len(c) == 0 for c in clauses):
        return None
    if not _search([list(c) for c in clauses], assign):
        return None
    return [v if val else -v for v, val in sorted(assign.items())]


def result_text(nvars, model):
    if model is None:
        return "s UNSATISFIABLE\n"
    return "s SATISFIABLE\nv " + " ".join(str(l) for l in model) + "\n"
