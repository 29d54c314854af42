"""Plans labels and scan batches, then renders them (grey PNG). Every answer comes from the plan:
the code is chosen first, turned into modules, then drawn. Nothing here decodes an image."""
import math
import os
import sys
from operator import add

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lh import Raster, encode_png, randbelow_many  # noqa: E402

# EAN-13 left-hand odd (A) code of each digit as module bits, 1 = bar.
EAN_A = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
# The parity sets (A = odd, B = even) of the six left digits for each leading digit.
EAN_SETS = ["AAAAAA", "AABABB", "AABBAB", "AABBBA", "ABAABB", "ABBAAB", "ABBBAA", "ABABAB", "ABABBA", "ABBABA"]
# Code 128 bar/space widths, values 0..105 in order, then the stop.
C128 = "212222222122222221121223121322131222122213122312132212221213221312231212112232122132122231113222123122123221223211221132221231213212223112312131311222321122321221312212322112322211212123212321232121111323131123131321112313132113132311211313231113231311112133112331132131113123113321133121313121211331231131213113213311213131311123311321331121312113312311332111314111221411431111111224111422121124121421141122141221112214112412122114122411142112142211241211221114413111241112134111111242121142121241114212124112124211411212421112421211212141214121412121111143111341131141114113114311411113411311113141114131311141411131211412211214211232"
C128_STOP = "2331112"


def ean_digits_with_check(body12):
    """The 13 digits: the body and its check digit (weights 1, 3, 1, ... from the left)."""
    total = 0
    for pos, ch in enumerate(body12):
        total += int(ch) * (1 if pos % 2 == 0 else 3)
    return body12 + str((10 - total % 10) % 10)


def ean_modules(code13):
    bits = "101"
    sets = EAN_SETS[int(code13[0])]
    for ch, s in zip(code13[1:7], sets):
        a = EAN_A[int(ch)]
        if s == "A":
            bits += a
        else:  # even parity: the right-hand code mirrored
            bits += "".join("1" if b == "0" else "0" for b in a)[::-1]
    bits += "01010"
    for ch in code13[7:]:
        bits += "".join("1" if b == "0" else "0" for b in EAN_A[int(ch)])
    bits += "101"
    assert len(bits) == 95
    return [int(b) for b in bits]


def c128_values(segments):
    """Values (start, data..., no check) of text segments [("B", "PK"), ("C", "0417"), ...]."""
    vals = []
    for n, (cset, part) in enumerate(segments):
        if n == 0:
            vals.append(104 if cset == "B" else 105)
        else:
            vals.append(100 if cset == "B" else 99)
        if cset == "B":
            vals.extend(ord(ch) - 32 for ch in part)
        else:
            assert len(part) % 2 == 0
            vals.extend(int(part[k:k + 2]) for k in range(0, len(part), 2))
    return vals


def c128_check(vals):
    acc = vals[0]
    for weight in range(1, len(vals)):
        acc += weight * vals[weight]
    return acc % 103


def c128_modules(vals):
    widths = ""
    for v in vals:
        widths += C128[6 * v:6 * v + 6]
    widths += C128_STOP
    bits = []
    for k, ch in enumerate(widths):
        bits.extend([1 - k % 2] * int(ch))
    return bits


# ---------------------------------------------------------------------------------------------
# Planning codes
# ---------------------------------------------------------------------------------------------

LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
B_CHARS = LETTERS + "abcdefghkmnpqrstuvwxyz0123456789-/."


def plan_ean(rng, first=None):
    first = rng.randrange(10) if first is None else first
    body = str(first) + "".join(str(rng.randrange(10)) for _ in range(11))
    return ean_digits_with_check(body)


def _digits(rng, pairs, low_pair):
    ps = [rng.randrange(100) for _ in range(pairs)]
    if low_pair:
        ps[rng.randrange(pairs)] = rng.randrange(10)
    return "".join("%02d" % p for p in ps)


def plan_c128(rng, form=None, low_pair=None):
    """(text, segments) of a parcel id. Forms: b (set B only), bc (B then C), cb (C then B),
    c (C only), bcb (B, C, B)."""
    form = form or rng.choice(["b", "bc", "cb", "c", "bcb", "bc", "cb"])
    low = rng.random() < 0.75 if low_pair is None else low_pair

    def word(lo, hi):
        return "".join(rng.choice(B_CHARS) for _ in range(rng.randint(lo, hi)))

    if form == "b":
        segs = [("B", rng.choice(LETTERS) + word(3, 8))]
    elif form == "bc":
        segs = [("B", rng.choice(LETTERS) + word(1, 3)), ("C", _digits(rng, rng.randint(2, 5), low))]
    elif form == "cb":
        segs = [("C", _digits(rng, rng.randint(2, 5), low)), ("B", rng.choice("-/.") + word(1, 3))]
    elif form == "c":
        segs = [("C", _digits(rng, rng.randint(3, 6), low))]
    else:
        segs = [("B", rng.choice(LETTERS) + word(1, 2)), ("C", _digits(rng, rng.randint(2, 4), low)),
                ("B", rng.choice("-/.") + word(1, 2))]
    return "".join(p for _, p in segs), segs


def c128_from_digits(code13):
    """A Code 128 symbol whose text is an EAN's 13 digits (12 in set C, the last in set B)."""
    return code13, [("C", code13[:12]), ("B", code13[12])]


# ---------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------

def default_look(rng):
    return {"x": round(2.5 + 1.0 * rng.random(), 3), "contrast": "normal", "blur": rng.random() < 0.6,
            "rotated": False, "damage": None, "height": rng.randint(14, 22)}


def symbol_modules(label):
    if label["symbology"] == "ean13":
        code = label["text"]
        if label.get("bad_check"):
            code = code[:12] + str((int(code[12]) + label["bad_check"]) % 10)
        return ean_modules(code)
    vals = c128_values(label["segments"])
    chk = c128_check(vals)
    if label.get("bad_check"):
        chk = (chk + label["bad_check"]) % 103
    return c128_modules(vals + [chk])


def _levels(rng, contrast):
    if contrast == "low":  # a dark, under-exposed scan: everything below mid-grey
        return rng.randint(4, 22), rng.randint(96, 120), rng.randint(2, 5)
    if contrast == "high":  # a faded print: everything above mid-grey
        return rng.randint(136, 158), rng.randint(222, 250), rng.randint(2, 5)
    return rng.randint(10, 60), rng.randint(180, 245), rng.randint(3, 12)


def render(rng, label):
    """PNG bytes of a planned label. label: symbology, text/segments, bad_check, look."""
    look = label["look"]
    mods = symbol_modules(label)
    x = look["x"]
    ql, qr = rng.randint(10, 14), rng.randint(10, 14)
    damage = look["damage"]
    intrude = None
    if damage == "intrude":
        # Sides in drawing order, before any rotation: "start" is before the start character.
        side = look.get("intrude_side") or rng.choice(["start", "end"])
        gap, bar = rng.randint(2, 5), rng.randint(2, 4)
        intrude = (side, gap, bar)
    start = ql * x + rng.random()
    width = int(math.ceil(start + (len(mods) + qr) * x)) + 1
    spans = []
    k = 0
    while k < len(mods):
        if mods[k]:
            j = k
            while j < len(mods) and mods[j]:
                j += 1
            spans.append((start + k * x, start + j * x))
            k = j
        else:
            k += 1
    if intrude:
        side, gap, bar = intrude
        if side == "start":
            spans.append((start - (gap + bar) * x, start - gap * x))
        else:
            end = start + len(mods) * x
            spans.append((end + gap * x, end + (gap + bar) * x))
    cov = [0.0] * width
    for a, b in spans:
        lo, hi = max(0, int(a)), min(width, int(math.ceil(b)))
        # Each column c in [lo, hi) gets max(0.0, min(b, c + 1) - max(a, c)): exactly 1 for the
        # columns wholly under the bar (a <= c, c + 1 <= b), added by slice; the formula at the ends.
        i0, i1 = max(lo, math.ceil(a)), min(hi, math.floor(b))
        if i1 > i0:
            cov[i0:i1] = [v + 1.0 for v in cov[i0:i1]]
        for c in list(range(lo, min(i0, hi))) + list(range(max(i0, i1), hi)):
            cov[c] += max(0.0, min(b, c + 1) - max(a, c))
    if look["blur"]:
        cov = [(cov[max(c - 1, 0)] + 2 * cov[c] + cov[min(c + 1, width - 1)]) / 4.0 for c in range(width)]
    h = look["height"]
    top, bottom = rng.randint(2, 3), h - rng.randint(2, 3)
    sym_lo, sym_hi = start, start + len(mods) * x
    if look["rotated"]:
        cov = cov[::-1]
        top, bottom = h - bottom, h - top
        sym_lo, sym_hi = width - sym_hi, width - sym_lo
    dark, light, noise = _levels(rng, look["contrast"])
    rect = None
    mid = h // 2
    if damage == "scuff":  # a light scuff over the middle rows only
        span = rng.randint(10, 20) * x
        c0 = sym_lo + rng.random() * (sym_hi - sym_lo - span)
        r0 = max(top, mid - rng.randint(1, 3))
        r1 = min(bottom - 3, mid + rng.randint(1, 3))
        rect = (int(c0), int(c0 + span), r0, r1 + 1, light)
    elif damage == "smear":  # over every row of the code: nothing to read
        span = rng.randint(14, 24) * x
        c0 = sym_lo + 12 * x + rng.random() * (sym_hi - sym_lo - span - 24 * x)
        rect = (int(c0), int(c0 + span), 0, h, rng.choice([light, dark]))
    # Each pixel is int(round(v)) plus noise rng.randint(-noise, noise), drawn in row-major order
    # with no other draw in between: v depends only on the column and the row's band/rect state,
    # so it is computed per row, and the noise is drawn for all pixels at once (lh.randbelow_many:
    # the same numbers and stream use as one randint a pixel).
    band = [int(round(light - (light - dark) * cov[c])) for c in range(width)]
    levels = band + [light] + ([rect[4]] if rect else [])
    vmin, vmax = min(levels), max(levels)
    # Levels as offsets from vmin; clip[v - vmin + r] is the clamped byte of v + (r - noise).
    clip = bytes(min(255, max(0, vmin - noise + t)) for t in range(vmax - vmin + 2 * noise + 1))
    band = [v - vmin for v in band]
    base = []
    for y in range(h):
        row = band[:] if top <= y < bottom else [light - vmin] * width
        if rect and rect[2] <= y < rect[3]:
            lo, hi = max(0, rect[0]), min(width, rect[1])
            if hi > lo:
                row[lo:hi] = [rect[4] - vmin] * (hi - lo)
        base += row
    noise_draws = randbelow_many(rng, 2 * noise + 1, len(base))  # randint(-noise, noise) + noise
    pixels = bytes(map(clip.__getitem__, map(add, base, noise_draws)))
    filt = rng.choice([0, 1, 2, 3, 4, "cycle", "cycle"])
    split = label.get("split_idat")
    idat = None
    if split:
        idat = rng.randint(40, 400)
    return encode_png(Raster(width, h, 1, pixels), filter=filt, idat_size=idat)


def truth_of(label):
    """What the SPEC's reader must report for a planned label."""
    damage = label["look"]["damage"]
    if damage in ("smear", "intrude"):
        return {"status": "unreadable"}
    status = "checksum_error" if label.get("bad_check") else "ok"
    t = {"status": status, "symbology": label["symbology"], "rotated": label["look"]["rotated"]}
    if status == "ok":
        t["text"] = label["text"]
    return t


def make_label(rng, symbology, look=None, text=None, segments=None, bad_check=0, split=None, first=None,
               form=None, low_pair=None):
    look = look or default_look(rng)
    if symbology == "ean13":
        text = text or plan_ean(rng, first)
    elif text is None:
        text, segments = plan_c128(rng, form, low_pair)
    if bad_check:
        bad_check = rng.randint(1, 9) if symbology == "ean13" else rng.randint(1, 102)
    return {"symbology": symbology, "text": text, "segments": segments, "bad_check": bad_check, "look": look,
            "split_idat": True if split is None else split}


def vary_look(rng, look, rotate=0.3, shifted=0.25, scuff=0.15):
    if rng.random() < rotate:
        look["rotated"] = True
    if rng.random() < shifted:
        look["contrast"] = rng.choice(["low", "high"])
    if rng.random() < scuff:
        look["damage"] = "scuff"
    return look


# ---------------------------------------------------------------------------------------------
# Hidden label sets
# ---------------------------------------------------------------------------------------------

def label_set(rng, kind):
    """[(name, label)] for a hidden decoding check."""
    labels = []
    if kind == "ean":
        firsts = rng.sample(range(10), 10) + [rng.randrange(10) for _ in range(4)]
        for n, f in enumerate(firsts):
            look = vary_look(rng, default_look(rng), 0.2, 0.15, 0.1)
            labels.append(make_label(rng, "ean13", look, first=f, bad_check=n % 5 == 4))
        look = default_look(rng)
        look.update(damage="intrude", intrude_side="end", rotated=rng.random() < 0.5)
        labels.append(make_label(rng, "ean13", look))
    elif kind == "code128":
        forms = ["b", "bc", "cb", "c", "bcb", "bc", "cb", "c", "bcb", "bc", "cb", "bcb", "c", "b"]
        for n, form in enumerate(forms):
            look = vary_look(rng, default_look(rng), 0.2, 0.15, 0.1)
            labels.append(make_label(rng, "code128", look, form=form, bad_check=n % 6 == 5))
        look = default_look(rng)
        look.update(damage="intrude", intrude_side="end", rotated=rng.random() < 0.5)
        labels.append(make_label(rng, "code128", look))
    else:  # scan conditions: rotation, exposure, blur, scuffs, smears, quiet-zone intrusions
        plan = [("rotated", None), ("rotated", "low"), ("rotated", "high"), (None, "low"), (None, "high"),
                (None, "low"), (None, "high"), ("scuff", None), ("scuff", "low"), ("rotated+scuff", None),
                ("smear", None), ("intrude", None), ("intrude-end", None), ("rotated+intrude-end", None),
                ("rotated", None), ("intrude-end", "high")]
        for n, (what, contrast) in enumerate(plan):
            look = default_look(rng)
            what = what or ""
            look["rotated"] = "rotated" in what
            for dmg in ("scuff", "smear", "intrude"):
                if dmg in what:
                    look["damage"] = dmg
            if contrast:
                look["contrast"] = contrast
            if "intrude-end" in what:
                look["intrude_side"] = "end"
            sym = "ean13" if n % 2 == 0 else "code128"
            labels.append(make_label(rng, sym, look))
    order = rng.sample(range(len(labels)), len(labels))
    return [("label-%02d.png" % (k + 1), labels[i]) for k, i in enumerate(order)]


# ---------------------------------------------------------------------------------------------
# Batches: manifest, scans, inventory log
# ---------------------------------------------------------------------------------------------

def _group_ean(code):
    return "%s %s %s" % (code[0], code[1:7], code[7:])


def build_batch(rng, n_ean=5, n_parcel=5, split=None):
    """(files {relative path: bytes}, truth) of a scan batch planned first, rendered second."""
    items = []  # manifest lines
    scans = []  # labels in scan order
    used = set()

    def fresh_ean():
        while True:
            c = plan_ean(rng)
            if c not in used:
                used.add(c)
                return c

    def fresh_c128():
        while True:
            t, s = plan_c128(rng)
            if t not in used:
                used.add(t)
                return t, s

    for _ in range(n_ean):
        code = fresh_ean()
        qty = rng.randint(1, 4)
        items.append({"symbology": "ean13", "code": code, "qty": qty})
        for _ in range(max(0, qty + rng.choice([-1, 0, 0, 0, 1]))):
            scans.append(make_label(rng, "ean13", vary_look(rng, default_look(rng)), text=code))
    for k in range(n_parcel):
        t, s = fresh_c128()
        items.append({"symbology": "code128", "code": t, "qty": 1})
        for _ in range(2 if k == 0 else rng.choice([0, 1, 1, 1, 2])):
            scans.append(make_label(rng, "code128", vary_look(rng, default_look(rng)), text=t, segments=s))
    # The trap: a parcel label whose text is a manifest EAN's digits (another symbology, not a match).
    eans = [it["code"] for it in items if it["symbology"] == "ean13"]
    t, s = c128_from_digits(rng.choice(eans))
    scans.append(make_label(rng, "code128", vary_look(rng, default_look(rng)), text=t, segments=s))
    for _ in range(rng.randint(1, 2)):  # codes not on the manifest
        if rng.random() < 0.5:
            scans.append(make_label(rng, "ean13", vary_look(rng, default_look(rng)), text=fresh_ean()))
        else:
            t, s = fresh_c128()
            scans.append(make_label(rng, "code128", vary_look(rng, default_look(rng)), text=t, segments=s))
    for k in range(rng.randint(1, 2)):  # checksum errors on manifest codes
        it = rng.choice(items)
        look = vary_look(rng, default_look(rng))
        if it["symbology"] == "ean13":
            scans.append(make_label(rng, "ean13", look, text=it["code"], bad_check=1))
        else:
            t, s = fresh_c128()
            scans.append(make_label(rng, "code128", look, text=t, segments=s, bad_check=1))
    for _ in range(rng.randint(1, 2)):  # unreadable labels
        it = rng.choice(items)
        look = vary_look(rng, default_look(rng), scuff=0)
        look["damage"] = rng.choice(["smear", "intrude", "intrude"])
        look["intrude_side"] = "end"
        sym = it["symbology"]
        if sym == "ean13":
            scans.append(make_label(rng, sym, look, text=it["code"]))
        else:
            t, s = fresh_c128()
            scans.append(make_label(rng, sym, look, text=t, segments=s))
    order = rng.sample(range(len(scans)), len(scans))
    scans = [scans[i] for i in order]
    names = ["scan-%03d.png" % (k + 1) for k in range(len(scans))]
    lines = rng.sample(range(len(items)), len(items))
    items = [items[i] for i in lines]
    for n, it in enumerate(items):
        it["line"] = n + 1
    files = {}
    for lab in scans:
        if split is not None:
            lab["split_idat"] = split
    for name, lab in zip(names, scans):
        files["scans/" + name] = render(rng, lab)
    man = ["line,symbology,code,qty"]
    for it in items:
        code = it["code"]
        if it["symbology"] == "ean13" and rng.random() < 0.4:
            code = _group_ean(code)
        man.append("%d,%s,%s,%d" % (it["line"], it["symbology"], code, it["qty"]))
    files["manifest.csv"] = ("\n".join(man) + "\n").encode()
    truths = {name: truth_of(lab) for name, lab in zip(names, scans)}
    inv, log = build_inventory(rng, names, scans, truths)
    files["inventory.csv"] = inv.encode()
    truth = {"scans": truths, "reconcile": expect_reconcile(items, names, truths), "audit": expect_audit(items, log, truths)}
    return files, truth


def build_inventory(rng, names, scans, truths):
    """The clerk's log: one entry per scan in order, a few planted slips (wrong code, wrong
    symbology, a scan logged twice)."""
    log = []
    for name, lab in zip(names, scans):
        log.append([name, lab["symbology"], lab["text"]])
    ok_names = [n for n in names if truths[n]["status"] == "ok"]
    for _ in range(rng.randint(2, 3)):  # a wrong digit or character in the logged code
        n = rng.choice(ok_names)
        row = next(r for r in log if r[0] == n)
        code = row[2]
        k = rng.randrange(len(code))
        if code[k].isdigit():
            rep = str((int(code[k]) + rng.randint(1, 9)) % 10)
        else:
            rep = rng.choice([c for c in LETTERS if c != code[k]])
        row[2] = code[:k] + rep + code[k + 1:]
    ean_ok = [n for n in ok_names if truths[n]["symbology"] == "ean13"]
    if ean_ok:  # the right digits logged under the wrong symbology
        pick = rng.choice(ean_ok)
        row = next(r for r in log if r[0] == pick)
        row[1] = "code128"
    for sym in ("code128", "ean13"):  # a scan logged twice: a later entry for the same file
        n = rng.choice([m for m in ok_names if truths[m]["symbology"] == sym] or ok_names)
        src = next(r for r in log if r[0] == n)
        at = log.index(src) + rng.randint(1, 4)
        log.insert(min(at, len(log)), [n, truths[n]["symbology"], truths[n]["text"]])
    lines = ["entry,scan,symbology,code"]
    for e, (n, sym, code) in enumerate(log, 1):
        shown = _group_ean(code) if sym == "ean13" and len(code) == 13 and rng.random() < 0.3 else code
        lines.append("%d,%s,%s,%s" % (e, n, sym, shown))
    return "\n".join(lines) + "\n", log


def expect_reconcile(items, names, truths):
    counts = {}
    for n in names:
        t = truths[n]
        if t["status"] == "ok":
            counts.setdefault((t["symbology"], t["text"]), []).append(n)
    lines = []
    for it in items:
        got = len(counts.pop((it["symbology"], it["code"]), []))
        lines.append({"line": it["line"], "scanned": got,
                      "status": "complete" if got == it["qty"] else ("short" if got < it["qty"] else "over")})
    return {"lines": lines,
            "unexpected": sorted([{"symbology": k[0], "code": k[1], "scans": sorted(v)} for k, v in counts.items()],
                                 key=lambda u: (u["symbology"], u["code"])),
            "unreadable": sorted(n for n in names if truths[n]["status"] == "unreadable"),
            "checksum_errors": sorted(n for n in names if truths[n]["status"] == "checksum_error")}


def expect_audit(items, log, truths):
    manifest = {(it["symbology"], it["code"]) for it in items}
    parcels_seen = []
    out = []
    for e, (n, sym, code) in enumerate(log, 1):
        t = truths[n]
        if t["status"] != "ok":
            out.append({"entry": e, "reason": t["status"]})
            continue
        key = (t["symbology"], t["text"])
        if (sym, code) != key:
            reason = "mismatch"
        elif key[0] == "code128" and key in parcels_seen:
            reason = "duplicate"
        elif key not in manifest:
            reason = "not_in_manifest"
        else:
            reason = "ok"
        if key[0] == "code128":
            parcels_seen.append(key)
        out.append({"entry": e, "reason": reason})
    return out


def full_reading(label):
    """The complete decode record the SPEC asks for (used for the public expected outputs)."""
    t = truth_of(label)
    if t["status"] == "unreadable":
        return {"status": "unreadable", "symbology": None, "text": None, "rotated": None}
    text = label["text"]
    if t["status"] == "checksum_error" and label["symbology"] == "ean13":
        text = text[:12] + str((int(text[12]) + label["bad_check"]) % 10)
    return {"status": t["status"], "symbology": label["symbology"], "text": text, "rotated": t["rotated"]}
