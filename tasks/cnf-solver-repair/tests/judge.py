"""The grader's own checks: puzzle answers by direct backtracking over the puzzle model (items in
order, slots in order, so the first complete assignment found is the least by the tie rule), and
cardinality encodings by brute force over the primary variables with a small residual search."""


def _ok_partial(m, sidx, got):
    """got: item -> slot index for a prefix of the items. False when a constraint already fails."""
    count = {}
    for it, s in got.items():
        count[s] = count.get(s, 0) + 1
    for s, n in count.items():
        lim = m["slot_cap"].get(m["slots"][s], m["cap"])
        if lim is not None and n > lim:
            return False
    for a, b in m["apart"]:
        if a in got and b in got and got[a] == got[b]:
            return False
    for a, b in m["same"]:
        if a in got and b in got and got[a] != got[b]:
            return False
    for a, b in m["before"]:
        if a in got and b in got and not got[a] < got[b]:
            return False
    for a, b in m.get("before_or_same", ()):
        if a in got and b in got and not got[a] <= got[b]:
            return False
    for it, ss in m["avoid"].items():
        if it in got and m["slots"][got[it]] in ss:
            return False
    for it, ss in m["only"].items():
        if it in got and m["slots"][got[it]] not in ss:
            return False
    left = len(m["items"]) - len(got)
    short = 0
    for s, need in m["mins"].items():
        short += max(0, need - count.get(sidx[s], 0))
    return short <= left


def assignments(m, limit):
    """Up to `limit` valid assignments, least by the tie rule first: lists of (item, slot)."""
    sidx = {s: i for i, s in enumerate(m["slots"])}
    found = []
    got = {}

    def walk(k):
        if len(found) >= limit:
            return
        if k == len(m["items"]):
            found.append([(it, m["slots"][got[it]]) for it in m["items"]])
            return
        it = m["items"][k]
        for s in range(len(m["slots"])):
            got[it] = s
            if _ok_partial(m, sidx, got):
                walk(k + 1)
            del got[it]
            if len(found) >= limit:
                return

    walk(0)
    return found


def answer_lines(answer):
    return ["INFEASIBLE"] if answer is None else ["%s %s" % p for p in answer]


# ------------------------------------------------------------------ cardinality encodings


def _fix(clauses, lit):
    out = []
    for c in clauses:
        if lit in c:
            continue
        if -lit in c:
            c = [x for x in c if x != -lit]
            if not c:
                return None
        out.append(c)
    return out


def residual_sat(clauses):
    """Plain splitting search on a clause list (lists of ints)."""
    while True:
        units = [c[0] for c in clauses if len(c) == 1]
        if not units:
            break
        clauses = _fix(clauses, units[0])
        if clauses is None:
            return False
    if not clauses:
        return True
    if any(not c for c in clauses):
        return False
    pivot = clauses[0][0]
    for lit in (pivot, -pivot):
        rest = _fix(clauses, lit)
        if rest is not None and residual_sat(rest):
            return True
    return False


def read_dimacs_simple(text):
    """(nvars, nclauses_declared, clauses) of a file the program wrote; ValueError if unreadable."""
    header = None
    toks = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("c"):
            continue
        if s.startswith("p"):
            parts = s.split()
            header = (int(parts[2]), int(parts[3]))
            continue
        toks += [int(t) for t in s.split()]
    if header is None:
        raise ValueError("no problem line")
    clauses, cur = [], []
    for t in toks:
        if t == 0:
            clauses.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        raise ValueError("unterminated clause")
    return header[0], header[1], clauses


def card_holds(kind, k, ones):
    return {"atmost": ones <= k, "atleast": ones >= k, "exactly": ones == k}[kind]


def check_card(kind, n, k, text):
    """(ok, why): the file encodes kind(k) over variables 1..n, auxiliaries above n."""
    nv, nc, clauses = read_dimacs_simple(text)
    if nc != len(clauses):
        return False, "header says %d clauses, file has %d" % (nc, len(clauses))
    if nv < n or any(abs(l) > nv for c in clauses for l in c):
        return False, "variables out of the header's range"
    if kind == "atmost" and k == 1 and nv != n:
        return False, "at-most-one must be pairwise (no auxiliary variables), header has %d" % nv
    for bits in range(1 << n):
        fixed = clauses
        for v in range(1, n + 1):
            lit = v if bits >> (v - 1) & 1 else -v
            fixed = _fix(fixed, lit)
            if fixed is None:
                break
        sat = fixed is not None and residual_sat(fixed)
        ones = bin(bits).count("1")
        if sat != card_holds(kind, k, ones):
            return False, "with %d of %d true the encoding is %s" % (ones, n, "satisfiable" if sat else "unsatisfiable")
    return True, "ok"
