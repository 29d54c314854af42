"""Hidden cases for reactor-kinetics-repro, built from the seed.

Every case is a folder (mechanism.mech, runs.json) plus the expected answers, which come from:
- linear (first-order) networks: the exact solution exp(K t) c0 (expm_ref, 34-digit decimals);
- nonlinear reversible networks: a planted equilibrium (rate constants chosen so that the chosen
  state satisfies detailed balance, initial state moved off it along the reaction vectors);
- conservation: element totals computed from the composition table and the initial state.
"""
import json
import math

import expm_ref

R = 8.314462618
UNITS = ["J/mol", "kJ/mol", "cal/mol", "kcal/mol", "K"]
TO_J = {"J/mol": 1.0, "kJ/mol": 1000.0, "cal/mol": 4.184, "kcal/mol": 4184.0, "K": R}
KEYWORD_CASE = [str.upper, str.lower, str.capitalize]


def _k(params, temp, unit):
    a, b, ea = params
    return a * temp ** b * math.exp(-ea * TO_J[unit] / (R * temp))


def _params(rng, k_target, temp, unit):
    """Arrhenius parameters (as written in the file) whose rate constant at temp is about k_target."""
    b = rng.choice([0.0, 0.0, 0.5, -1.0, 1.5])
    ea_j = rng.uniform(15e3, 120e3)
    ea = float("%.6g" % (ea_j / TO_J[unit]))
    a = k_target / (temp ** b * math.exp(-ea * TO_J[unit] / (R * temp)))
    a = float("%.8g" % a)
    return (a, b, ea)


def _num(x):
    return ("%.8g" % x) if x != int(x) or abs(x) >= 1e6 else ("%g" % x)


def _term(rng, coef, name):
    if coef == 1:
        return name
    if coef == 2 and rng.random() < 0.5:
        return "%s + %s" % (name, name)
    return rng.choice(["%d %s", "%d%s"]) % (coef, name)


def _side(rng, side):
    return " + ".join(_term(rng, c, s) for s, c in side)


def render(rng, unit, species, reactions):
    """species: [(name, {el: n})]; reactions: [(lhs, rhs, reversible, fwd, rev)] with sides as
    [(name, coef)]. Returns the .mech text, with varied but valid spellings."""
    kw = rng.choice(KEYWORD_CASE)
    out = ["! generated mechanism", "%s %s" % (kw("units"), unit) if unit != "J/mol" or rng.random() < 0.5 else "! energies in J/mol (default)"]
    if rng.random() < 0.5:
        els = sorted({e for _, comp in species for e in comp})
        out.append("%s %s %s" % (kw("elements"), " ".join(els), kw("end")))
    out.append(kw("species"))
    for name, comp in species:
        out.append("  %-6s %s" % (name, " ".join("%s=%d" % (e, n) for e, n in sorted(comp.items()))))
    out.append(kw("end"))
    out.append(kw("reactions"))
    for lhs, rhs, rev, fwd, revp in reactions:
        arrow = rng.choice(["<=>", "="]) if rev else "=>"
        line = "  %s %s %s    %s %s %s" % (_side(rng, lhs), arrow, _side(rng, rhs), _num(fwd[0]), _num(fwd[1]), _num(fwd[2]))
        if rng.random() < 0.3:
            line += "   ! step %d" % (len(out))
        out.append(line)
        if rev:
            out.append("    %s / %s %s %s /" % (rng.choice(["REV", "rev", "Rev"]), _num(revp[0]), _num(revp[1]), _num(revp[2])))
    out.append(kw("end"))
    return "\n".join(out) + "\n"


def _rate_matrix(n, first_order, temp, unit):
    """K for first-order steps [(i, j, fwd, rev or None)]: i -> j (and back)."""
    k = [[0.0] * n for _ in range(n)]
    for i, j, fwd, rev in first_order:
        kf = _k(fwd, temp, unit)
        k[i][i] -= kf
        k[j][i] += kf
        if rev is not None:
            kr = _k(rev, temp, unit)
            k[j][j] -= kr
            k[i][j] += kr
    return k


def linear_network(rng, n, spread, reversible_share, leaky=False):
    """A connected first-order network over n species. Returns (species, steps) with steps as
    (i, j, k_forward_target, k_reverse_target or None)."""
    names = rng.sample(["A", "B", "C", "D", "E", "F", "G", "H2X", "IS1", "IS2", "P", "Q"], n)
    comp = {"C": rng.randint(1, 4), "H": rng.randint(2, 8), "O": rng.randint(0, 2)}
    comp = {e: v for e, v in comp.items() if v}
    species = [(s, dict(comp)) for s in names]
    if leaky:
        # The last species has lost one H: its formation steps do not conserve hydrogen.
        lost = dict(comp)
        lost["H"] -= 1
        species[-1] = (names[-1], lost)
    order = list(range(n))
    steps = []
    lo, hi = spread
    for a in range(1, n):
        i = order[rng.randrange(0, a)] if rng.random() < 0.4 else order[a - 1]
        j = order[a]
        kf = 10 ** rng.uniform(lo, hi)
        kr = 10 ** rng.uniform(lo, hi) if rng.random() < reversible_share else None
        steps.append((i, j, kf, kr))
    if n >= 4 and rng.random() < 0.5:
        i, j = rng.sample(range(n), 2)
        if not any((s[0], s[1]) in ((i, j), (j, i)) for s in steps):
            steps.append((i, j, 10 ** rng.uniform(lo, hi), None))
    return species, steps


def linear_case(rng, nruns, spread, reversible_share, leaky=False, geometric=False):
    n = rng.randint(3, 6)
    unit = rng.choice(UNITS)
    species, steps = linear_network(rng, n, spread, reversible_share, leaky)
    t_ref = round(rng.uniform(600, 1500), 1)
    # A temperature sweep around the reference: rate constants move by at most a few e-folds.
    temps = [t_ref] + [round(t_ref + rng.uniform(-120, 120), 1) for _ in range(nruns - 1)]
    rng.shuffle(temps)
    first_order, reactions = [], []
    for i, j, kf, kr in steps:
        fwd = _params(rng, kf, t_ref, unit)
        rev = _params(rng, kr, t_ref, unit) if kr is not None else None
        first_order.append((i, j, fwd, rev))
        reactions.append(([(species[i][0], 1)], [(species[j][0], 1)], rev is not None, fwd, rev))
    text = render(rng, unit, species, reactions)
    names = [s for s, _ in species]
    runs, expect = [], []
    for r, temp in enumerate(temps):
        kmat = _rate_matrix(n, first_order, temp, unit)
        rates = [-kmat[i][i] for i in range(n) if kmat[i][i] < 0]
        slow = min(rates)
        t_end = float("%.4g" % (rng.uniform(2.0, 6.0) / slow))
        if geometric:
            fast = max(rates)
            t0 = max(0.1 / fast, t_end * 1e-7)
            m = 8
            times = [float("%.4g" % (t0 * (t_end / t0) ** (q / (m - 1)))) for q in range(m)]
        else:
            times = [float("%.4g" % (t_end * q / 8)) for q in range(1, 9)]
        times = sorted(set(times))
        times[-1] = t_end
        c0 = [0.0] * n
        c0[0] = float("%.4g" % rng.uniform(0.2, 2.0))
        for q in range(1, n):
            if rng.random() < 0.3:
                c0[q] = float("%.4g" % rng.uniform(0.0, 0.5))
        exact = expm_ref.propagate(kmat, c0, times)
        run = {"id": "r%d" % (r + 1), "T": temp, "init": {names[q]: c0[q] for q in range(n) if c0[q] > 0},
               "times": times}
        ev = None
        # A threshold on a species that rises: a share of its peak over a dense exact grid.
        cand = [q for q in range(n) if max(row[q] for row in exact) > c0[q] + 0.05 * sum(c0)]
        if cand:
            q = rng.choice(cand)
            states = expm_ref.dense(kmat, c0, t_end)
            peak = expm_ref.peak(states, c0, q)
            value = float("%.4g" % (c0[q] + rng.uniform(0.25, 0.75) * (peak - c0[q])))
            if rng.random() < 0.2:
                value = float("%.4g" % (1.5 * peak + 0.01))  # never reached: t_cross left empty
            tc = expm_ref.first_crossing(kmat, c0, q, value, states)
            if tc is not None or value > peak:
                run["threshold"] = {"species": names[q], "value": value}
                ev = (names[q], value, tc)
        runs.append(run)
        expect.append({"id": run["id"], "times": times, "conc": exact, "event": ev, "c0": c0, "kmat": kmat})
    return text, names, species, runs, expect


def conservation_expect(species, c0, states):
    """(element, initial, final, max_rel_drift) from exact states."""
    els = sorted({e for _, comp in species for e in comp})
    out = []
    for e in els:
        tot = lambda c: sum(comp.get(e, 0) * x for (_, comp), x in zip(species, c))
        init = tot(c0)
        series = [tot(c) for c in states]
        drift = max(abs(v - init) for v in series)
        out.append((e, init, series[-1], drift / abs(init) if init else drift))
    return out


# Nonlinear templates over a small element set. Each species: composition; each reaction:
# (lhs, rhs) with coefficients. Several share species so that some networks hold cycles.
NL_SPECIES = {
    "X": {"C": 1, "H": 2}, "Y": {"O": 1}, "XY": {"C": 1, "H": 2, "O": 1}, "X2": {"C": 2, "H": 4},
    "Y2": {"O": 2}, "X2Y": {"C": 2, "H": 4, "O": 1}, "Z": {"N": 1}, "XZ": {"C": 1, "H": 2, "N": 1},
}
NL_REACTIONS = [
    ([("X", 1), ("Y", 1)], [("XY", 1)]),
    ([("X", 2)], [("X2", 1)]),
    ([("Y", 2)], [("Y2", 1)]),
    ([("XY", 1), ("X", 1)], [("X2Y", 1)]),
    ([("X2", 1), ("Y", 1)], [("X2Y", 1)]),
    ([("X", 1), ("Z", 1)], [("XZ", 1)]),
    ([("XZ", 1), ("Y", 1)], [("XY", 1), ("Z", 1)]),
]


def _pick_nonlinear(rng, lo, hi):
    while True:
        chosen = sorted(rng.sample(range(len(NL_REACTIONS)), rng.randint(lo, hi)))
        used = []
        for q in chosen:
            for side in NL_REACTIONS[q]:
                for s, _ in side:
                    if s not in used:
                        used.append(s)
        if len(used) <= 7:
            return [NL_REACTIONS[q] for q in chosen], [s for s in NL_SPECIES if s in used]


def equilibrium_case(rng, nruns):
    """Reversible nonlinear network with a planted equilibrium per run."""
    unit = rng.choice(UNITS)
    rxns, names = _pick_nonlinear(rng, 2, 4)
    species = [(s, NL_SPECIES[s]) for s in names]
    temp = round(rng.uniform(600, 1500), 1)
    # The equilibrium is planted at the first run's temperature; the other runs reuse the
    # mechanism at the same temperature with other initial states in other stoichiometric classes.
    ceq = {s: float("%.4g" % rng.uniform(0.05, 1.0)) for s in names}
    reactions = []
    krs = []
    for lhs, rhs in rxns:
        kr = 10 ** rng.uniform(0, 1)
        q = 1.0
        for s, c in rhs:
            q *= ceq[s] ** c
        for s, c in lhs:
            q /= ceq[s] ** c
        kf = kr * q
        fwd = _params(rng, kf, temp, unit)
        rev = _params(rng, kr, temp, unit)
        # Rebalance so that the written numbers keep the planted state an exact equilibrium.
        kf_w, kr_w = _k(fwd, temp, unit), _k(rev, temp, unit)
        reactions.append((lhs, rhs, True, fwd, rev))
        krs.append((kf_w, kr_w))
    # The written parameters were rounded: recompute the equilibrium they define by moving one
    # species per reaction is not possible in general, so the planted state is corrected instead
    # through the equilibrium solve below (Newton on the extents, from the planted state).
    text = render(rng, unit, species, reactions)
    runs, expect = [], []
    n = len(names)
    nu = [[0] * n for _ in rxns]
    for r, (lhs, rhs) in enumerate(rxns):
        for s, c in lhs:
            nu[r][names.index(s)] -= c
        for s, c in rhs:
            nu[r][names.index(s)] += c
    for rr in range(nruns):
        base = [ceq[s] * (1.0 if rr == 0 else rng.uniform(0.5, 1.5)) for s in names]
        eq = _equilibrate(base, nu, rxns, names, krs)
        # Initial state: off the equilibrium along the reaction vectors, non-negative.
        for _ in range(100):
            xi = [rng.uniform(-1, 1) for _ in rxns]
            c0 = [eq[i] + sum(xi[r] * nu[r][i] for r in range(len(rxns))) for i in range(n)]
            if min(c0) >= 0.0:
                break
            scale = 0.9 * min(eq[i] / max(1e-300, -(c0[i] - eq[i])) for i in range(n) if c0[i] < 0)
            c0 = [eq[i] + scale * (c0[i] - eq[i]) for i in range(n)]
            if min(c0) >= 0.0:
                break
        c0 = [float("%.6g" % max(0.0, x)) for x in c0]
        eq = _equilibrate(c0, nu, rxns, names, krs, start=eq)
        slowest = min(min(kr, 1.0) for _, kr in krs)
        t_end = float("%.4g" % (rng.uniform(60, 90) / slowest))
        times = sorted({float("%.4g" % (t_end * (1e-3 * 1000 ** (q / 5)))) for q in range(6)})
        times[-1] = t_end
        run = {"id": "e%d" % (rr + 1), "T": temp, "init": {names[i]: c0[i] for i in range(n) if c0[i] > 0},
               "times": times}
        runs.append(run)
        expect.append({"id": run["id"], "times": times, "c0": c0, "eq": eq})
    return text, names, species, runs, expect


def _independent(nu):
    """Indices of a maximal linearly independent subset of the reaction vectors."""
    keep, basis = [], []
    for r, row in enumerate(nu):
        v = [float(x) for x in row]
        for piv, b in basis:
            if v[piv]:
                f = v[piv] / b[piv]
                v = [x - f * y for x, y in zip(v, b)]
        big = max(range(len(v)), key=lambda i: abs(v[i]))
        if abs(v[big]) > 1e-9:
            keep.append(r)
            basis.append((big, v))
    return keep


def _equilibrate(c0, nu, rxns, names, krs, start=None):
    """The detailed-balance state in c0's stoichiometric class: Newton on the reaction extents
    (ln-quotient form), damped to stay positive. start: a guess in the same class or None.
    Dependent reactions (cycles) are left out: their balance follows from the others."""
    keep = _independent(nu)
    nu = [nu[r] for r in keep]
    rxns = [rxns[r] for r in keep]
    krs = [krs[r] for r in keep]
    n, m = len(c0), len(rxns)
    xi = [0.0] * m
    if start is not None:
        # Least-squares extents taking c0 to start (N^T xi = start - c0).
        xi = _lstsq(nu, [start[i] - c0[i] for i in range(n)])
    conc = lambda x: [c0[i] + sum(x[r] * nu[r][i] for r in range(m)) for i in range(n)]
    if start is None or min(conc(xi)) <= 0:
        xi = [0.0] * m
        if min(c0) <= 0:
            # Move a little inside the positive orthant first.
            for _ in range(200):
                c = conc(xi)
                if min(c) > 0:
                    break
                g = [sum(nu[r][i] * (1.0 if c[i] <= 0 else 0.0) for i in range(n)) for r in range(m)]
                xi = [xi[r] + 1e-3 * g[r] for r in range(m)]
    for _ in range(200):
        c = conc(xi)
        f = []
        for r in range(m):
            kf, kr = krs[r]
            f.append(math.log(kf / kr) - sum(nu[r][i] * math.log(c[i]) for i in range(n) if nu[r][i]))
        jac = [[sum(nu[r][i] * nu[q][i] / c[i] for i in range(n) if nu[r][i] and nu[q][i]) for q in range(m)]
               for r in range(m)]
        dx = _solve(jac, f)
        lam = 1.0
        while True:
            trial = [xi[r] + lam * dx[r] for r in range(m)]
            if min(conc(trial)) > 0:
                break
            lam *= 0.5
        xi = trial
        if max(abs(v) for v in f) < 1e-14:
            break
    return conc(xi)


def _solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for k in range(n):
        p = max(range(k, n), key=lambda i: abs(m[i][k]))
        m[k], m[p] = m[p], m[k]
        for i in range(k + 1, n):
            f = m[i][k] / m[k][k]
            for j in range(k, n + 1):
                m[i][j] -= f * m[k][j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x


def _lstsq(nu, d):
    m = len(nu)
    a = [[sum(nu[r][i] * nu[q][i] for i in range(len(d))) for q in range(m)] for r in range(m)]
    b = [sum(nu[r][i] * d[i] for i in range(len(d))) for r in range(m)]
    return _solve(a, b)


def audit_case(rng):
    """Irreversible nonlinear balanced mechanism (coefficients spelled as 'A + A', '2A', '2 A',
    catalysts on both sides) and a leaky first-order network."""
    unit = rng.choice(UNITS)
    rxns, names = _pick_nonlinear(rng, 2, 4)
    if rng.random() < 0.7 and not any(l == [("X", 2)] for l, _ in rxns):
        rxns = rxns + [NL_REACTIONS[1]]
        for s in ("X", "X2"):
            if s not in names:
                names.append(s)
    species = [(s, NL_SPECIES[s]) for s in names]
    temp = round(rng.uniform(600, 1500), 1)
    reactions = []
    for lhs, rhs in rxns:
        if rng.random() < 0.3 and "Z" in names:
            lhs, rhs = lhs + [("Z", 1)], rhs + [("Z", 1)]  # Z as a catalyst (order 1, net 0)
        reactions.append((lhs, rhs, False, _params(rng, 10 ** rng.uniform(-0.5, 1), temp, unit), None))
    text = render(rng, unit, species, reactions)
    runs = []
    exp = []
    for rr in range(2):
        c0 = [float("%.4g" % rng.uniform(0.1, 1.0)) if (rng.random() < 0.7 or s in ("X", "Y")) else 0.0
              for s in names]
        t_end = float("%.4g" % rng.uniform(2, 10))
        times = [float("%.4g" % (t_end * q / 5)) for q in range(1, 6)]
        run = {"id": "a%d" % (rr + 1), "T": round(temp + rng.uniform(-50, 50), 1),
               "init": {names[i]: c0[i] for i in range(len(names)) if c0[i] > 0}, "times": times}
        runs.append(run)
        exp.append((run["id"], conservation_expect(species, c0, [c0])))
    return text, names, species, runs, exp


def pack(text, runs):
    return {"mechanism.mech": text.encode(), "runs.json": json.dumps({"runs": runs}, indent=1).encode()}


def build(rng, kind):
    """Returns (files, expected) for one hidden case of a kind."""
    if kind == "linear":
        text, names, species, runs, exp = linear_case(rng, 3, (-1, 1), 0.35)
        return pack(text, runs), {"names": names, "species": species, "runs": exp}
    if kind == "stiff":
        text, names, species, runs, exp = linear_case(rng, 2, (-1, 5), 0.3, geometric=True)
        return pack(text, runs), {"names": names, "species": species, "runs": exp}
    if kind == "reversible":
        text, names, species, runs, exp = linear_case(rng, 1, (-1, 1), 1.0)
        text2, names2, species2, runs2, exp2 = equilibrium_case(rng, 2)
        return ({"lin/" + k: v for k, v in pack(text, runs).items()}
                | {"eq/" + k: v for k, v in pack(text2, runs2).items()},
                {"lin": {"names": names, "species": species, "runs": exp},
                 "eq": {"names": names2, "species": species2, "runs": exp2}})
    if kind == "audit":
        text, names, species, runs, exp = audit_case(rng)
        text2, names2, species2, runs2, exp2 = linear_case(rng, 1, (-1, 1), 0.3, leaky=True)
        for e in exp2:
            e["cons"] = conservation_expect(species2, e["c0"], e["conc"])
        return ({"nl/" + k: v for k, v in pack(text, runs).items()}
                | {"leak/" + k: v for k, v in pack(text2, runs2).items()},
                {"nl": {"names": names, "species": species, "cons": exp},
                 "leak": {"names": names2, "species": species2, "runs": exp2}})
    raise ValueError(kind)
