"""DIMACS CNF reader and writer (SPEC.md, section 1)."""


class Malformed(ValueError):
    """The text is not a well-formed CNF file under SPEC.md."""


def parse(text):
    """Return (nvars, clauses) or raise Malformed."""
    header = None
    clauses = []
    current = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line[0] == "c":
            continue
        if line[0] == "%":
            break
        if line[0] == "p":
            if header is not None:
                raise Malformed("second problem line")
            parts = line.split()
            if len(parts) != 4 or parts[1] != "cnf":
                raise Malformed("bad problem line")
            try:
                header = (int(parts[2]), int(parts[3]))
            except ValueError:
                raise Malformed("bad problem line") from None
            if header[0] < 0 or header[1] < 0:
                raise Malformed("bad problem line")
            continue
        if header is None:
            raise Malformed("clause before the problem line")
        for tok in line.split():
            try:
                lit = int(tok)
            except ValueError:
                raise Malformed("bad token %r" % tok) from None
            if lit == 0:
                clauses.append(current)
                current = []
            elif abs(lit) > header[0]:
                raise Malformed("variable %d out of range" % abs(lit))
            else:
                current.append(lit)
    if header is None:
        raise Malformed("no problem line")
    if current:
        raise Malformed("last clause not terminated by 0")
    if len(clauses) != header[1]:
        raise Malformed("header says %d clauses, found %d" % (header[1], len(clauses)))
    return header[0], clauses


def write(nvars, clauses, comments=()):
    out = ["c %s" % c for c in comments]
    out.append("p cnf %d %d" % (nvars, len(clauses)))
    for c in clauses:
        out.append(" ".join(str(l) for l in c) + (" 0" if c else "0"))
    return "\n".join(out) + "\n"
