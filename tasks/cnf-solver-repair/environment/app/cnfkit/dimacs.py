"""DIMACS CNF reader and writer."""


class Malformed(ValueError):
    """The text is not a CNF file."""


def parse(text):
    """Return (nvars, clauses)."""
    nvars = None
    clauses = []
    for line in text.split("\n"):
        if not line or line.startswith("c"):
            continue
        if line.startswith("p"):
            parts = line.split(" ")
            if parts[1] != "cnf":
                raise Malformed("not a cnf file")
            nvars = int(parts[2])
            continue
        lits = [int(tok) for tok in line.split()]
        if lits and lits[-1] == 0:
            lits = lits[:-1]
        clauses.append(lits)
    if nvars is None:
        raise Malformed("no problem line")
    return nvars, clauses


def write(nvars, clauses, comments=()):
    out = ["c %s" % c for c in comments]
    out.append("p cnf %d %d" % (nvars, len(clauses)))
    for c in clauses:
        out.append(" ".join(str(l) for l in c) + " 0")
    return "\n".join(out) + "\n"
