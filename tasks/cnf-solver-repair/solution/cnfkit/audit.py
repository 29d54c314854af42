"""Audit of another solver's claimed results (SPEC.md, section 5)."""
import os

from . import dimacs, dpll


class BadClaim(ValueError):
    pass


def read_claim(text):
    """(status, values) with values None for an UNSAT claim; BadClaim if not in the result format."""
    status = None
    values = []
    closed = False
    saw_v = False
    for raw in text.splitlines():
        toks = raw.split()
        if not toks or toks[0] == "c":
            continue
        if toks[0] == "s":
            if status is not None or len(toks) != 2 or toks[1] not in ("SATISFIABLE", "UNSATISFIABLE"):
                raise BadClaim("status line")
            status = toks[1]
        elif toks[0] == "v":
            saw_v = True
            for tok in toks[1:]:
                if closed:
                    raise BadClaim("value after the closing 0")
                try:
                    n = int(tok)
                except ValueError:
                    raise BadClaim("bad value %r" % tok) from None
                if n == 0:
                    closed = True
                else:
                    values.append(n)
        else:
            raise BadClaim("unknown line")
    if status is None:
        raise BadClaim("no status line")
    if status == "UNSATISFIABLE":
        if saw_v:
            raise BadClaim("values for an UNSAT claim")
        return status, None
    if not closed:
        raise BadClaim("values not closed by 0")
    return status, values


def audit_one(cnf_text, claim_text):
    try:
        nvars, clauses = dimacs.parse(cnf_text)
    except dimacs.Malformed:
        return "BAD_CNF", ""
    if claim_text is None:
        return "MALFORMED", ""
    try:
        status, values = read_claim(claim_text)
    except BadClaim:
        return "MALFORMED", ""
    if status == "SATISFIABLE":
        if len(values) != nvars or {abs(v) for v in values} != set(range(1, nvars + 1)):
            return "VARCOUNT", ""
        true = set(values)
        for i, c in enumerate(clauses, 1):
            if not any(lit in true for lit in c):
                return "VIOLATES", str(i)
        return "OK", ""
    if dpll.solve(nvars, clauses) is not None:
        return "WRONG_UNSAT", ""
    return "OK", ""


def audit_dir(folder):
    rows = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".cnf"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            cnf_text = f.read()
        claim_path = os.path.join(folder, name[:-4] + ".out")
        claim_text = None
        if os.path.exists(claim_path):
            with open(claim_path, encoding="utf-8") as f:
                claim_text = f.read()
        code, detail = audit_one(cnf_text, claim_text)
        rows.append((name, code, detail))
    return rows
