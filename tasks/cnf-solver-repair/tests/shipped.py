"""Fixed-seed cases: the public examples (rendered into environment/examples by make_examples.py),
the shipped puzzle batch (/app/batch) and the shipped claims (/app/claims). The grader rebuilds
them here with their answers, which come from construction (gen.py) and judge.py."""
import random

import gen


def _solve_examples():
    rng = random.Random("public-solve")
    out = {}
    n = 24
    cl, _ = gen.planted_sat(rng, n, 86, (2, 3, 3, 4))
    out["ex1.cnf"] = (gen.render_cnf(rng, n + 2, cl, "stream", 2, True, 2), "SATISFIABLE", n + 2, cl)
    cl, nv = gen.pigeonhole(rng, 4)
    out["ex2.cnf"] = (gen.render_cnf(rng, nv, cl, "packed", 1), "UNSATISFIABLE", nv, cl)
    cl, _ = gen.planted_sat(rng, 16, 56)
    out["ex3.cnf"] = (gen.malform(rng, 16, cl, "count"), "MALFORMED", 16, cl)
    n = 40
    cl, _ = gen.planted_sat(rng, n, 160, (3,))
    out["ex4.cnf"] = (gen.render_cnf(rng, n, cl, "split", 1, False, 1), "SATISFIABLE", n, cl)
    return out


def solve_examples():
    return _solve_examples()


def reference_formula(name):
    _, _, nv, cl = _solve_examples()[name]
    return nv, cl


def puzzle_examples():
    rng = random.Random("public-puzzles")
    out = []
    for name, kind, heavy in [("p1", "multi", False), ("p2", "tight", True), ("p3", "infeasible", False)]:
        text, _, want = gen.puzzle_case(rng, kind, heavy)
        out.append((name, text, want))
    return out


def audit_example():
    return gen.audit_folder(random.Random("public-audit"), gen.AUDIT_KINDS)


def batch():
    rng = random.Random("shipped-batch")
    out = []
    for i, (kind, heavy) in enumerate([("unique", False), ("multi", True), ("tight", False), ("multi", False),
                                       ("infeasible", True), ("tight", True)]):
        text, _, want = gen.puzzle_case(rng, kind, heavy)
        out.append(("rota%02d.pzl" % (i + 1), text, want))
    return out


def claims():
    return gen.audit_folder(random.Random("shipped-claims"), gen.AUDIT_KINDS[:14])
