"""Seeded registries, manifests and lockfiles for pkgsolve, built from their meaning.

Every range is chosen first as a set of intervals over version tuples (with the MAJOR.MINOR.PATCH
tuples whose prereleases it admits) and only then spelled out in one of the range syntaxes. The
expected lock of a manifest comes from enumerating *every* solution over the planned registry and
ranking them by the specification's preference; the expected audit rows are planted (a correct
lock is corrupted in known ways). Nothing here parses a range text or reads a rendered file back.
"""
import json

# ---------------------------------------------------------------- versions as tuples

PRE_WORDS = ["alpha", "beta", "rc", "dev", "pre", "preview"]
NAMES = [
    "acorn", "aero-log", "amber", "anvil", "apex-io", "arbor", "argon", "ash-cache", "aspen", "atlas",
    "auric", "axle", "bale", "basalt", "beacon", "birch", "bitset", "blaze", "bolt-http", "borealis",
    "brisk", "bronze", "cairn", "canopy", "cedar", "chisel", "cinder", "clover", "cobalt", "comet",
    "copper", "coral", "crest", "crux", "dagger", "delta-fs", "dune", "dusk", "ember", "fable",
    "falcon", "fern", "flint", "forge", "frost", "garnet", "glade", "granite", "grove", "gust",
    "harbor", "hazel", "helix", "heron", "hollow", "ion-db", "iris", "ivy", "jade", "juniper",
    "kelp", "kestrel", "lark", "lattice", "ledger-x", "lumen", "lynx", "maple", "marble", "meadow",
    "mesa", "mica", "nimbus", "nova", "oak-json", "obsidian", "onyx", "opal", "orbit", "osprey",
    "pebble", "pine", "pixel-kit", "plume", "prism", "quartz", "quill", "raven", "reef", "ridge",
    "rivet", "saffron", "sage", "shale", "sierra", "slate", "sparrow", "spruce", "summit", "talon",
    "thistle", "timber", "topaz", "tundra", "umber", "vale", "vertex", "willow", "wren", "yarrow",
    "zenith", "zephyr", "zinc", "yew-ui", "xeno-rpc", "wasp", "vortex", "tulip", "sorrel", "rook",
]


def V(M, m, p, pre=()):
    return (M, m, p, tuple(str(x) for x in pre))


def vkey(v):
    M, m, p, pre = v
    idents = []
    for x in pre:
        idents.append((0, int(x), "") if x.isdigit() else (1, 0, x))
    return (M, m, p, 0 if pre else 1, tuple(idents))


def vtext(v):
    s = "%d.%d.%d" % v[:3]
    return s + ("-" + ".".join(v[3]) if v[3] else "")


def bump(parts, idx):
    """The version tuple just above the given parts at position idx: (1, 2, None), 1 -> 1.3.0."""
    out = [x or 0 for x in parts[:3]]
    out[idx] += 1
    for j in range(idx + 1, 3):
        out[j] = 0
    return V(*out)


# ---------------------------------------------------------------- ranges as meanings
# An alternative is (lo, lo_incl, hi, hi_incl, pre_ok): lo/hi version tuples or None, pre_ok the set
# of MAJOR.MINOR.PATCH tuples whose prereleases the alternative admits.

def admits(meaning, v):
    k = vkey(v)
    for lo, loi, hi, hii, pre_ok in meaning:
        if lo is not None and (k < vkey(lo) or (k == vkey(lo) and not loi)):
            continue
        if hi is not None and (k > vkey(hi) or (k == vkey(hi) and not hii)):
            continue
        if v[3] and v[:3] not in pre_ok:
            continue
        return True
    return False


def _parts_text(parts, wild):
    shown = [str(x) for x in parts if x is not None]
    if wild and len(shown) < 3:
        shown.append(wild)
    return ".".join(shown)


def spell(rng, form, anchor, given=3, pre=(), span=None):
    """One range alternative as (text, alternative) for a form and anchor (M, m, p)."""
    M, m, p = anchor
    parts = [M, m if given >= 2 else None, p if given >= 3 else None]
    lo_pre = tuple(pre) if given == 3 else ()
    lo = V(parts[0] or 0, parts[1] or 0, parts[2] or 0, lo_pre)
    pre_ok = {lo[:3]} if lo_pre else set()
    suffix = ("-" + ".".join(lo_pre)) if lo_pre else ""
    if form == "caret":
        nz = [i for i in range(given) if parts[i]]
        idx = nz[0] if nz else given - 1
        wild = rng.choice(["", "", "x"]) if given < 3 else ""
        return "^" + _parts_text(parts, wild) + suffix, (lo, True, bump(parts, idx), False, pre_ok)
    if form == "tilde":
        idx = 1 if given >= 2 else 0
        wild = rng.choice(["", "x"]) if given == 1 else ""
        return "~" + _parts_text(parts, wild) + suffix, (lo, True, bump(parts, idx), False, pre_ok)
    if form == "xrange":
        if given == 3:
            return rng.choice(["", "="]) + _parts_text(parts, "") + suffix, (lo, True, lo, True, pre_ok)
        wild = rng.choice(["", "x", "X", "*"])
        return _parts_text(parts, wild), (lo, True, bump(parts, given - 1), False, set())
    if form == "hyphen":
        # span: (upper anchor, upper given parts)
        (UM, Um, Up), ug = span
        uparts = [UM, Um if ug >= 2 else None, Up if ug >= 3 else None]
        if ug == 3:
            hi, hii = V(UM, Um, Up), True
        else:
            hi, hii = bump(uparts, ug - 1), False
        return "%s%s - %s" % (_parts_text(parts, ""), suffix, _parts_text(uparts, "")), (lo, True, hi, hii, pre_ok)
    if form == "compare":
        # span: (upper anchor, upper given parts, lower op, upper op)
        (UM, Um, Up), ug, lop, hop = span
        uparts = [UM, Um if ug >= 2 else None, Up if ug >= 3 else None]
        if lop == ">=" or given == 3:
            lo_t, loi = lo, lop == ">="
        else:  # ">1.2" means ">=1.3.0"
            lo_t, loi = bump(parts, given - 1), True
        if ug == 3:
            hi_t, hii = V(UM, Um, Up), hop == "<="
        elif hop == "<":
            hi_t, hii = V(UM, Um or 0, 0), False
        else:  # "<=1.4" means "<1.5.0"
            hi_t, hii = bump(uparts, ug - 1), False
        text = "%s%s%s %s%s" % (lop, _parts_text(parts, ""), suffix, hop, _parts_text(uparts, ""))
        return text, (lo_t, loi, hi_t, hii, pre_ok)
    if form == "any":
        return rng.choice(["*", "x", ">=0.0.0"]), (None, True, None, True, set())
    raise ValueError(form)


def union(rng, alts):
    """alts: [(text, alternative)] -> (text, meaning)."""
    sep = rng.choice([" || ", "||", " ||  "])
    return sep.join(t for t, _ in alts), [a for _, a in alts]


# ---------------------------------------------------------------- registries as plans

class Reg:
    """name -> {version tuple: {"deps": {name: (text, meaning)}, "yanked": bool}}, plus log lines."""

    def __init__(self):
        self.pk = {}
        self.extra = {}  # name -> [extra log lines (dicts) appended or inserted]

    def add(self, name, v, deps=None, yanked=False):
        self.pk.setdefault(name, {})[v] = {"deps": dict(deps or {}), "yanked": yanked}

    def files(self, rng):
        """Renders the log files: publishes in shuffled order, yank events after their publish."""
        out = {}
        for name in sorted(self.pk):
            lines = []
            for v in rng.sample(list(self.pk[name]), len(self.pk[name])):
                rec = self.pk[name][v]
                pub = {"vers": vtext(v), "deps": {d: t for d, (t, _) in sorted(rec["deps"].items())}}
                lines.append((pub, rec))
            body = []
            for pub, rec in lines:
                if rec.get("log"):
                    body.extend(rec["log"](pub))
                else:
                    if rec["yanked"]:
                        pub["yanked"] = True
                    body.append(pub)
            for pos, extra in self.extra.get(name, []):
                body.insert(min(pos, len(body)), extra)
            out["registry/%s.jsonl" % name] = "".join(json.dumps(x) + "\n" for x in body).encode()
        return out


def solutions(reg, root):
    """Every solution (section 5 of the spec) by exhaustive enumeration over the plan."""
    found = []

    def consistent(assign):
        for n, v in assign.items():
            if n in root and not admits(root[n][1], v):
                return False
            for d, (_, mean) in reg.pk[n][v]["deps"].items():
                if d in assign and not admits(mean, assign[d]):
                    return False
        return True

    def walk(assign):
        need = set(root)
        for n, v in assign.items():
            need.update(reg.pk[n][v]["deps"])
        open_ = [n for n in need if n not in assign]
        if not open_:
            found.append(dict(assign))
            return
        n = max(open_)  # any fixed order enumerates every solution once
        for v, rec in reg.pk.get(n, {}).items():
            if rec["yanked"]:
                continue
            assign[n] = v
            if consistent(assign):
                walk(assign)
            del assign[n]

    walk({})
    return found


def preference(reg, root, sol):
    """The solution's versions in the order the spec's search decides them, as precedence keys."""
    need, order = set(root), []
    while True:
        left = sorted(need - set(order))
        if not left:
            break
        order.append(left[0])
        need.update(reg.pk[left[0]][sol[left[0]]]["deps"])
    return [vkey(sol[n]) for n in order]


def best(reg, root):
    if all(not rec["deps"] for n in root for rec in reg.pk.get(n, {}).values()):
        # leaves only: the solutions are every combination of admitted versions, and the greatest
        # sequence takes the newest admitted version of each package
        sol = {}
        for n, (_, mean) in root.items():
            ok = [v for v, rec in reg.pk.get(n, {}).items() if not rec["yanked"] and admits(mean, v)]
            if not ok:
                return None, []
            sol[n] = max(ok, key=vkey)
        return sol, [sol]
    sols = solutions(reg, root)
    if not sols:
        return None, sols
    return max(sols, key=lambda s: preference(reg, root, s)), sols


def lock_of(reg, root_name, sol):
    """The expected lock as {name: (version text, {dep: version text})}."""
    return {n: (vtext(v), {d: vtext(sol[d]) for d in reg.pk[n][v]["deps"]}) for n, v in sol.items()}


def lock_doc(root_name, lock):
    return {"lockfile_version": 1, "root": root_name,
            "packages": {n: {"version": t, "dependencies": dict(sorted(deps.items()))} for n, (t, deps) in sorted(lock.items())}}


def manifest_bytes(root_name, root):
    return (json.dumps({"name": root_name, "dependencies": {n: t for n, (t, _) in sorted(root.items())}}, indent=2) + "\n").encode()


# ---------------------------------------------------------------- range + version families

def family(rng, name, reg, form=None, zero=None, with_pre=None):
    """A range on a fresh leaf package and its versions: some inside, some just outside.

    Returns (text, meaning). The versions are planted around the range's edges so that the best
    version inside differs from the best version under each plausible misreading."""
    form = form or rng.choice(["caret", "caret", "tilde", "xrange", "hyphen", "compare"])
    zero = rng.random() < 0.4 if zero is None else zero
    M = 0 if zero else rng.randint(1, 4)
    m = rng.randint(1 if zero else 0, 6)
    p = rng.randint(0, 4)
    given = rng.choice([3, 3, 2]) if form in ("caret", "tilde", "hyphen", "compare") else rng.choice([1, 2, 2])
    if form == "caret" and zero and rng.random() < 0.3:
        m, given = 0, 3  # ^0.0.p
        p = rng.randint(1, 5)
    span = None
    if form == "hyphen":
        um = m + rng.randint(0, 2)
        ug = rng.choice([2, 2, 3, 1]) if not zero else rng.choice([2, 3])
        if ug == 1:
            span = ((M + 1, 0, 0), 1)
        else:
            span = ((M, um, rng.randint(p + 1, p + 4) if um == m else rng.randint(0, 3)), ug)
    if form == "compare":
        um = m + rng.randint(1, 3)
        ug = rng.choice([2, 3])
        span = ((M, um, rng.randint(0, 3)), ug, rng.choice([">=", ">=", ">"]), rng.choice(["<", "<", "<="]))
        if given != 3 and span[2] == ">":
            pass
    text, alt = spell(rng, form, (M, m, p), given, (), span)
    meaning = [alt]
    if rng.random() < 0.15:
        M2 = M + rng.randint(2, 3)
        t2, a2 = spell(rng, "caret", (M2, rng.randint(0, 3), 0), rng.choice([2, 3]))
        text, meaning = union(rng, [(text, alt), (t2, a2)])
    # candidate versions around every alternative's edges
    cands = set()
    for lo, loi, hi, hii, _ in meaning:
        if lo is None:
            lo = V(1, 0, 0)
        L = lo[:3]
        cands.add(V(*L))
        if L[2] > 0:
            cands.add(V(L[0], L[1], L[2] - 1))
        if L[1] > 0:
            cands.add(V(L[0], L[1] - 1, rng.randint(0, 5)))
        cands.add(V(L[0], L[1], L[2] + rng.randint(1, 3)))
        if hi is not None:
            H = hi[:3]
            cands.add(V(*H))
            # the newest release below the upper end
            if H[2] > 0:
                cands.add(V(H[0], H[1], H[2] - 1))
            elif H[1] > 0:
                cands.add(V(H[0], H[1] - 1, rng.randint(1, 9)))
            elif H[0] > 0:
                cands.add(V(H[0] - 1, rng.randint(1, 12), rng.randint(0, 9)))
            cands.add(V(H[0], H[1], H[2] + 1))
            cands.add(V(H[0], H[1] + 1, 0))
            if H[2] > 0:
                cands.add(V(H[0], H[1], H[2] - 1))
            if H[1] > 0:
                cands.add(V(H[0], H[1] - 1, rng.randint(1, 9)))
            if (with_pre if with_pre is not None else rng.random() < 0.6) and not hii:
                cands.add(V(H[0], H[1], H[2], (rng.choice(PRE_WORDS), str(rng.randint(1, 3)))))
            # the same range read with a caret on 0.x as on 1.x, or a partial upper end as inclusive
            cands.add(V(H[0], H[1] + rng.randint(1, 3), rng.randint(0, 3)))
            if H[0] == 0:
                cands.add(V(0, H[1] + 2, 1))
        else:
            cands.add(V(L[0] + rng.randint(1, 3), rng.randint(0, 12), rng.randint(0, 3)))
    cands = {v for v in cands if min(v[:3]) >= 0}
    if not any(admits(meaning, v) for v in cands):
        cands.add(meaning[0][0] if meaning[0][0] is not None else V(1, 0, 0))
    for v in sorted(cands, key=vkey):
        reg.add(name, v)
    return text, meaning


# ---------------------------------------------------------------- the kinds

class Names:
    def __init__(self, rng):
        self.pool = rng.sample(NAMES, len(NAMES))

    def take(self, k):
        out, self.pool = self.pool[:k], self.pool[k:]
        return sorted(out)


def expected_lock(reg, root):
    sol, _ = best(reg, root)
    return None if sol is None else lock_of(reg, None, sol)


def case_ranges(rng, names):
    reg, root = Reg(), {}
    pkgs = names.take(10)
    forms = ["caret", "caret", "caret", "tilde", "xrange", "hyphen", "hyphen", "hyphen", "compare", "caret"]
    rng.shuffle(forms)
    for i, n in enumerate(pkgs):
        zero = True if i < 3 else None
        root[n] = family(rng, n, reg, form=forms[i], zero=zero)
    return reg, root


def pre_family(rng, name, reg):
    """Prerelease precedence and admission around one anchor."""
    M, m, p = rng.randint(0, 3), rng.randint(0, 5), rng.randint(0, 4)
    if M == 0 and m == 0:
        m = 1
    word = rng.choice(["beta", "rc", "alpha"])
    low = rng.randint(1, 4)
    kind = rng.choice(["caret", "tilde", "compare", "exact", "plain", "plain"])
    pre_lo = (word, str(low))
    anchor = (M, m, p)
    if kind == "plain":
        # no prerelease in the range: prereleases inside the bounds never match
        text, alt = spell(rng, rng.choice(["caret", "tilde"]), anchor, 3)
        hi = alt[2]
        reg.add(name, V(M, m, p))
        reg.add(name, V(M, m, p + 1))
        reg.add(name, V(M, m, p + 2, (word, "1")))
        reg.add(name, V(hi[0], hi[1], hi[2], ("rc", str(rng.randint(1, 12)))))
        reg.add(name, V(hi[0], hi[1], hi[2]))
        return text, [alt]
    if kind == "exact":
        n = rng.randint(10, 19)
        text, alt = spell(rng, "xrange", anchor, 3, (word, str(n)))
        for k in (2, 3, n, n + 1, 9):
            reg.add(name, V(M, m, p, (word, str(k))))
        reg.add(name, V(M, m, p))
        return text, [alt]
    if kind == "compare":
        span = ((M, m + 1, 0), 3, ">=", "<")
        text, alt = spell(rng, "compare", anchor, 3, pre_lo, span)
    else:
        text, alt = spell(rng, kind, anchor, 3, pre_lo)
    # the anchor's prereleases: below the bound, numerically above it (two digits), alphanumerically
    reg.add(name, V(M, m, p, (word, str(low - 1 if low > 1 else 0))))
    reg.add(name, V(M, m, p, (word, str(low))))
    reg.add(name, V(M, m, p, (word, str(low + 1))))
    reg.add(name, V(M, m, p, (word, str(10 + rng.randint(0, 15)))))
    if rng.random() < 0.5:
        reg.add(name, V(M, m, p, (word, str(low + 1), "1")))
    if rng.random() < 0.3:
        reg.add(name, V(M, m, p, (word, "x" + str(rng.randint(1, 9)))))
    # prereleases of later tuples inside the bounds (never admitted)
    reg.add(name, V(M, m, p + 1, ("alpha", str(rng.randint(1, 3)))))
    hi = alt[2]
    reg.add(name, V(hi[0], hi[1], hi[2], ("rc", "1")))
    if rng.random() < 0.4:
        reg.add(name, V(M, m, p))  # the release itself outranks its prereleases
    if rng.random() < 0.3:
        reg.add(name, V(M, m, p + 1))
    return text, [alt]


def case_prerelease(rng, names):
    reg, root = Reg(), {}
    for n in names.take(8):
        root[n] = pre_family(rng, n, reg)
    return reg, root


def case_registry(rng, names):
    """Yank logs, republishes, versions whose text order differs from their precedence."""
    reg, root = Reg(), {}
    pkgs = names.take(7)
    for i, n in enumerate(pkgs):
        M = rng.randint(0, 3)
        if M == 0:
            anchor, given = (0, rng.randint(1, 3), 0), 2
        else:
            anchor, given = (M, rng.randint(0, 2), 0), rng.choice([1, 2])
        form = rng.choice(["caret", "xrange"]) if given == 1 else "caret"
        text, alt = spell(rng, form, anchor, given)
        root[n] = (text, [alt])
        lo, hi = alt[0], alt[2]
        # minors 8..12 (text order 9 > 10 > 11) inside the range
        if hi[:2] == (lo[0], lo[1] + 1):  # one minor wide: spread the patches instead
            vs = [V(lo[0], lo[1], x) for x in (2, 9, 10, 11, 12)]
        else:
            vs = [V(lo[0], lo[1] + x, rng.randint(0, 2)) for x in (0, 8, 9, 10, 11, 12)] + [V(lo[0], lo[1] + 9, 10)]
        vs.append(V(*hi[:3]))  # just outside
        vs = sorted(set(vs), key=vkey)
        inside = [v for v in vs if admits([alt], v)]
        for v in vs:
            reg.add(n, v)
        top = inside[-1]
        second = inside[-2]
        mode = i % 4
        if mode == 0:
            # the newest version inside was yanked later in the log
            reg.pk[n][top]["yanked"] = True
            reg.pk[n][top]["log"] = lambda pub, vt=vtext(top): [pub, {"vers": vt, "yanked": True}]
        elif mode == 1:
            # yanked, then un-yanked: selectable again; the one below stays yanked by its publish line
            reg.pk[n][top]["log"] = lambda pub, vt=vtext(top): [pub, {"vers": vt, "yanked": True}, {"vers": vt, "yanked": False}]
            reg.pk[n][second]["yanked"] = True
        elif mode == 2:
            # a yank event written before the publish is ignored; a republish cannot yank
            reg.pk[n][top]["log"] = lambda pub, vt=vtext(top): [{"vers": vt, "yanked": True}, pub, dict(pub, yanked=True, deps={})]
        else:
            # published yanked, un-yanked by a later event; the newest inside yanked twice
            reg.pk[n][second]["log"] = lambda pub, vt=vtext(second): [dict(pub, yanked=True), {"vers": vt, "yanked": False}]
            reg.pk[n][top]["yanked"] = True
            reg.pk[n][top]["log"] = lambda pub, vt=vtext(top): [pub, {"vers": vt, "yanked": True}, {"vers": vt, "yanked": True}]
    return reg, root


def leaf_pkg(rng, reg, name, majors=(1, 2)):
    vs = set()
    for M in majors:
        for _ in range(rng.randint(2, 3)):
            vs.add(V(M, rng.randint(0, 11), rng.randint(0, 3)))
    vs = sorted(vs, key=vkey)
    for v in vs:
        reg.add(name, v)
    return vs


def dep_on(rng, versions, pick):
    """A range on a package admitting `pick` (a version of it) and maybe its neighbours."""
    M, m, p = pick[:3]
    style = rng.choice(["caret", "caret", "tilde", "major", "ge"])
    if style == "caret":
        return spell(rng, "caret", (M, m, p), rng.choice([2, 3]) if M else 3)
    if style == "tilde":
        return spell(rng, "tilde", (M, m, 0), 2)
    if style == "major":
        return spell(rng, "xrange", (M, 0, 0), 1)
    return spell(rng, "compare", (M, m, 0), 2, (), ((M + 1, 0, 0), 2, ">=", "<"))


def case_backtrack(rng, names, motif):
    """Conflicts that need backtracking, cycles with back-edges, unsatisfiable manifests."""
    reg, root = Reg(), {}
    if motif == "conflict":
        a, b, c, d = names.take(4)  # a < b < c: a decided first, its newest needs c 2.x, b needs c 1.x
        cv = leaf_pkg(rng, reg, c, (1, 2))
        c1 = [v for v in cv if v[0] == 1]
        c2 = [v for v in cv if v[0] == 2]
        am = rng.randint(1, 3)
        a_old = [V(am, 0, rng.randint(0, 3)), V(am, 1, rng.randint(0, 3))]
        a_new = [V(am, 2, 0), V(am, 3, rng.randint(0, 3))]
        for v in a_old:
            reg.add(a, v, {c: spell(rng, "caret", (1, 0, 0), 2)})
        for v in a_new:
            reg.add(a, v, {c: spell(rng, "caret", c2[0][:3], 3)})
        bv = leaf_pkg(rng, reg, b, (2,))
        for v in bv:
            reg.pk[b][v]["deps"] = {c: spell(rng, "caret", c1[0][:3], 3), d: spell(rng, "xrange", (1, 0, 0), 1)}
        leaf_pkg(rng, reg, d, (1, 2))
        root[a] = spell(rng, "caret", (am, 0, 0), 2)
        root[b] = spell(rng, "caret", (2, 0, 0), 1)
    elif motif == "cycle":
        p, q, r = names.take(3)  # p -> q -> p: q's newest wants a p that p's range excludes
        pm = rng.randint(1, 3)
        pvs = [V(pm, 0, 0), V(pm, 1, rng.randint(0, 4)), V(pm, 2, rng.randint(0, 4)), V(pm + 1, 0, 0)]
        for v in pvs:
            reg.add(p, v, {q: spell(rng, "caret", (1, 0, 0), 2)})
        reg.pk[p][pvs[-1]]["deps"] = {q: spell(rng, "caret", (1, 0, 0), 2)}
        q_ok = [V(1, 1, 0), V(1, 2, rng.randint(0, 3))]
        q_bad = [V(1, 3, 0), V(1, 4, rng.randint(0, 3))]
        for v in q_ok:
            reg.add(q, v, {p: spell(rng, "tilde", (pm, 1, 0), 2), r: spell(rng, "caret", (1, 0, 0), 2)})
        for v in q_bad:
            reg.add(q, v, {p: spell(rng, "caret", (pm + 1, 0, 0), 2), r: spell(rng, "caret", (1, 0, 0), 2)})
        leaf_pkg(rng, reg, r, (1,))
        root[p] = spell(rng, "caret", (pm, 0, 0), rng.choice([1, 2]))
    elif motif == "deep":
        a, b, c, d = names.take(4)  # a's newest needs b's newest, which needs a d that c rules out
        dv = leaf_pkg(rng, reg, d, (1, 2))
        d1 = [v for v in dv if v[0] == 1]
        d2 = [v for v in dv if v[0] == 2]
        reg.add(a, V(1, 4, 0), {b: spell(rng, "caret", (3, 2, 0), 3)})
        reg.add(a, V(1, 3, 2), {b: spell(rng, "caret", (3, 0, 0), 2)})
        reg.add(a, V(1, 2, 0), {b: spell(rng, "caret", (3, 0, 0), 2)})
        reg.add(b, V(3, 2, 1), {d: spell(rng, "caret", d2[0][:3], 3)})
        reg.add(b, V(3, 2, 0), {d: spell(rng, "caret", d2[0][:3], 3)})
        reg.add(b, V(3, 1, rng.randint(0, 5)), {d: spell(rng, "caret", d1[0][:3], 3)})
        reg.add(b, V(3, 0, 4), {d: spell(rng, "caret", d1[0][:3], 3)})
        for v in leaf_pkg(rng, reg, c, (4,)):
            reg.pk[c][v]["deps"] = {d: spell(rng, "xrange", (1, 0, 0), 1)}
        root[a] = spell(rng, "caret", (1, 0, 0), 2)
        root[c] = spell(rng, "caret", (4, 0, 0), 1)
    else:  # unsat
        m_, n_, o = names.take(3)
        leaf_pkg(rng, reg, o, (1, 2))
        for v in leaf_pkg(rng, reg, m_, (1,)):
            reg.pk[m_][v]["deps"] = {o: spell(rng, "xrange", (1, 0, 0), 1)}
        for v in leaf_pkg(rng, reg, n_, (2,)):
            reg.pk[n_][v]["deps"] = {o: spell(rng, "caret", (2, 0, 0), 1)}
        root[m_] = spell(rng, "caret", (1, 0, 0), 1)
        root[n_] = spell(rng, "caret", (2, 0, 0), 1)
    # unrelated leaves the manifest also needs
    for n in names.take(rng.randint(1, 2)):
        vs = leaf_pkg(rng, reg, n)
        root[n] = dep_on(rng, vs, rng.choice(vs))
    root = {k: (t, [a]) for k, (t, a) in root.items()}
    for n in reg.pk:
        for v in reg.pk[n]:
            reg.pk[n][v]["deps"] = {d: (t, [a]) if not isinstance(a, list) else (t, a) for d, (t, a) in reg.pk[n][v]["deps"].items()}
    return reg, root


# ---------------------------------------------------------------- audit: a solved app, then corrupted

def app_registry(rng, pool):
    """Mid-level packages with deps on leaves (one with a cycle back), plus spare packages."""
    reg, root = Reg(), {}
    pool = rng.sample(pool, len(pool))
    mids, leaves, spare = sorted(pool[:3]), sorted(pool[3:9]), sorted(pool[9:11])
    leaf_vs = {n: leaf_pkg(rng, reg, n) for n in leaves + spare}
    for n in spare:
        for v in leaf_vs[n]:
            reg.pk[n][v]["deps"] = {}
    for i, n in enumerate(mids):
        M = rng.randint(1, 3)
        for mi in range(rng.randint(2, 4)):
            v = V(M, mi, rng.randint(0, 3))
            deps = {}
            for lf in rng.sample(leaves, 2):
                deps[lf] = dep_on(rng, leaf_vs[lf], rng.choice(leaf_vs[lf]))
            reg.add(n, v, deps)
        root[n] = spell(rng, "caret", (M, 0, 0), rng.choice([1, 2]))
    # a back-edge: the last mid depends on the first
    first = mids[0]
    fm = list(reg.pk[first])[0][0]
    for v in reg.pk[mids[-1]]:
        reg.pk[mids[-1]][v]["deps"][first] = spell(rng, "xrange", (fm, 0, 0), 1)
    direct = leaves[0]
    root[direct] = dep_on(rng, leaf_vs[direct], leaf_vs[direct][-1])
    root = {k: (t, [a]) for k, (t, a) in root.items()}
    for n in reg.pk:
        for v in reg.pk[n]:
            reg.pk[n][v]["deps"] = {d: (t, [a]) for d, (t, a) in reg.pk[n][v]["deps"].items()}
    return reg, root, spare


def ranges_on(reg, root, sol, name):
    out = [root[name][1]] if name in root else []
    for n, v in sol.items():
        if name in reg.pk[n][v]["deps"]:
            out.append(reg.pk[n][v]["deps"][name][1])
    return out


def dependents(reg, sol, name):
    return [n for n, v in sol.items() if name in reg.pk[n][v]["deps"]]


def case_audit(rng, names, mode):
    """Returns (reg, root, lock doc, expected rows set)."""
    pool = names.take(11)
    for _ in range(60):
        reg, root, spare = app_registry(rng, pool)
        sol, sols = best(reg, root)
        if sol is not None and len(sols) >= 2:
            break
    else:
        raise RuntimeError("no solvable app registry")
    lock = lock_of(reg, None, sol)
    rows = set()
    if mode == "clean":
        return reg, root, lock, rows
    if mode == "outdated":
        other = [s for s in sols if s != sol]
        alt = rng.choice(other)
        lock = lock_of(reg, None, alt)
        for n in set(sol) | set(alt):
            if sol.get(n) != alt.get(n):
                rows.add((n, vtext(alt[n]) if n in alt else "", "outdated"))
        return reg, root, lock, rows
    leaves = sorted(n for n in sol if not reg.pk[n][sol[n]]["deps"])
    rng.shuffle(leaves)
    if mode == "yanked":
        for n in leaves[:3]:
            reg.pk[n][sol[n]]["yanked"] = True
            vt = vtext(sol[n])
            reg.pk[n][sol[n]]["log"] = lambda pub, vt=vt: [pub, {"vers": vt, "yanked": True}]
            rows.add((n, vt, "yanked"))
        return reg, root, lock, rows

    def repoint(name, new_text):
        for n in dependents(reg, sol, name):
            if n in lock:
                lock[n][1][name] = new_text
        lock[name] = (new_text, lock[name][1])

    todo = ["unknown_version", "yanked", "unsatisfied", "missing", "yanked2"]
    for n, reason in zip(leaves, todo):
        v = sol[n]
        if reason == "unknown_version":
            nv = V(v[0], v[1], v[2] + rng.randint(20, 40))
            repoint(n, vtext(nv))
            rows.add((n, vtext(nv), "unknown_version"))
        elif reason in ("yanked", "yanked2"):
            reg.pk[n][v]["yanked"] = True
            vt = vtext(v)
            reg.pk[n][v]["log"] = lambda pub, vt=vt: [pub, {"vers": vt, "yanked": True}]
            rows.add((n, vt, "yanked"))
        elif reason == "unsatisfied":
            rs = ranges_on(reg, root, sol, n)
            bad = [w for w in reg.pk[n] if not reg.pk[n][w]["yanked"] and not all(admits(r, w) for r in rs)]
            if not bad:
                continue
            w = rng.choice(bad)
            repoint(n, vtext(w))
            rows.add((n, vtext(w), "unsatisfied"))
        elif reason == "missing":
            del lock[n]
            rows.add((n, "", "missing"))
    # an entry for a package the registry never had, and a spare package nobody needs
    ghost = names.take(1)[0]
    lock[ghost] = ("1.%d.0" % rng.randint(0, 9), {})
    rows.add((ghost, lock[ghost][0], "unknown_package"))
    sp = spare[0]
    spv = rng.choice(list(reg.pk[sp]))
    lock[sp] = (vtext(spv), {})
    rows.add((sp, vtext(spv), "extraneous"))
    # a recorded dependency version edited by hand, on a package with deps that are all locked
    cands = [n for n in sorted(sol) if n in lock and reg.pk[n][sol[n]]["deps"]
             and all(d in lock for d in reg.pk[n][sol[n]]["deps"]) and not any(r[0] == n for r in rows)]
    if cands:
        n = rng.choice(cands)
        d = rng.choice(sorted(reg.pk[n][sol[n]]["deps"]))
        cur = lock[n][1][d]
        others = [vtext(w) for w in reg.pk[d] if vtext(w) != cur]
        deps = dict(lock[n][1])
        if others and rng.random() < 0.6:
            deps[d] = rng.choice(others)
        else:
            del deps[d]
        lock[n] = (lock[n][0], deps)
        rows.add((n, lock[n][0], "deps_mismatch"))
    return reg, root, lock, rows


# ---------------------------------------------------------------- assembling cases and projects

def render(rng, reg):
    return reg.files(rng)


def lock_case(rng, kind, names, idx):
    if kind == "ranges":
        reg, root = case_ranges(rng, names)
    elif kind == "prerelease":
        reg, root = case_prerelease(rng, names)
    elif kind == "registry":
        reg, root = case_registry(rng, names)
    else:
        motif = ["conflict", "cycle", "deep", "unsat", "conflict", "cycle"][idx % 6]
        reg, root = case_backtrack(rng, names, motif)
    return reg, root, expected_lock(reg, root)


def merge(regs):
    out = Reg()
    for r in regs:
        for n, vs in r.pk.items():
            assert n not in out.pk
            out.pk[n] = vs
    return out


def build_lock_cases(rng, kind, n):
    """n manifests over one registry (disjoint package names per manifest)."""
    names = Names(rng)
    regs, cases = [], []
    for i in range(n):
        reg, root, want = lock_case(rng, kind, names, i)
        regs.append(reg)
        cases.append(("m%d-%s" % (i, kind), root, want))
    reg = merge(regs)
    files = render(rng, reg)
    for tag, root, _ in cases:
        files["manifests/%s.json" % tag] = manifest_bytes(tag, root)
    return files, [(tag, want) for tag, _, want in cases]


AUDIT_MODES = ["multi", "yanked", "outdated", "multi", "clean", "yanked"]


def build_audit_cases(rng, n):
    names = Names(rng)
    regs, cases = [], []
    for i in range(n):
        mode = AUDIT_MODES[i % len(AUDIT_MODES)]
        reg, root, lock, rows = case_audit(rng, names, mode)
        regs.append(reg)
        tag = "a%d-%s" % (i, mode)
        cases.append((tag, root, lock, rows))
    reg = merge(regs)
    files = render(rng, reg)
    out = []
    for tag, root, lock, rows in cases:
        files["manifests/%s.json" % tag] = manifest_bytes(tag, root)
        files["locks/%s.lock.json" % tag] = (json.dumps(lock_doc(tag, lock), indent=2, sort_keys=True) + "\n").encode()
        out.append((tag, rows))
    return files, out


SERVICES = ["web-api", "worker", "billing", "search", "admin-ui", "gateway", "reports", "mailer", "scheduler", "cli"]
# The shipped projects: /app/examples/example1, example2 (answers shown) and /app/project (answers
# kept here). Each is build_project(random.Random(seed), plan).
PROJECTS = {
    "example1": ("pkgsolve-example-1", [("ranges", 0), ("backtrack", 0), ("audit", "multi"), ("audit", "outdated")]),
    "example2": ("pkgsolve-example-2", [("prerelease", 0), ("backtrack", 1), ("registry", 0), ("audit", "yanked"),
                                        ("audit", "clean")]),
    "project": ("pkgsolve-project", [("registry", 0), ("ranges", 0), ("backtrack", 2), ("prerelease", 0),
                                     ("audit", "multi"), ("backtrack", 3), ("audit", "yanked"), ("audit", "outdated"),
                                     ("ranges", 0), ("audit", "clean")]),
}


def build_project(rng, plan):
    """A project: one registry, several manifests, existing lockfiles. plan: [(kind, mode)]."""
    names = Names(rng)
    regs, mans, locks = [], [], []
    for i, (kind, mode) in enumerate(plan):
        tag = SERVICES[i]
        if kind == "audit":
            reg, root, lock, rows = case_audit(rng, names, mode)
            locks.append((tag, lock, rows))
        else:
            reg, root, _ = lock_case(rng, kind, names, mode)
        regs.append(reg)
        mans.append((tag, root))
    reg = merge(regs)
    files = render(rng, reg)
    want_locks, want_audits = {}, {}
    for tag, root in mans:
        files["manifests/%s.json" % tag] = manifest_bytes(tag, root)
        sol, _ = best(reg, root)
        want_locks[tag] = None if sol is None else lock_of(reg, None, sol)
    for tag, lock, rows in locks:
        files["locks/%s.lock.json" % tag] = (json.dumps(lock_doc(tag, lock), indent=2, sort_keys=True) + "\n").encode()
        want_audits[tag] = rows
    return files, want_locks, want_audits
