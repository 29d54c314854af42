"""Seeded plate batches and technician counts, with the answers known by construction.

A batch is plates.csv plus one PNG per plate (pngkit draws the colonies, stores the samples and
derives the blob table from those samples). The colony report follows from the planted table;
the technician's sheet is built by planting slips into the true report, and each slip's finding
rows are written down as it is planted."""
import pngkit

LOW, HIGH = 3, 12  # the SOP's TFTC / TNTC limits
DILUTIONS = (10, 100, 1000, 10000)


def verdict(n):
    return "TFTC" if n < LOW else ("TNTC" if n > HIGH else "OK")


def expected_cfu(n, dilution, status):
    return "" if status != "OK" else "%d" % (n * dilution)


def batch(rng, n_plates, prefix, encodings=None):
    """Returns (files {name: bytes}, plates [dict], report rows [list of str]). `encodings`: a fixed
    (colour type, depth) per plate, not interlaced; by default every plate draws its own."""
    wanted = [2, 3, 12, 13] + [rng.randint(4, 11) for _ in range(max(0, n_plates - 4))]
    rng.shuffle(wanted)
    wanted = wanted[:n_plates]
    ids = rng.sample(range(100, 999), n_plates)
    order = list(range(n_plates))
    rng.shuffle(order)
    files, plates = {}, []
    lines = ["plate,image,dilution"]
    for k, n in enumerate(wanted):
        enc = pngkit.ENCODINGS[rng.randrange(len(pngkit.ENCODINGS))]
        inter = rng.randint(0, 1)
        if encodings:
            enc, inter = encodings[k], 0
        data, table = pngkit.make(rng, "plate", enc, interlace=inter, count=n)
        image = "scan_%02d.png" % order[k]
        files[image] = data
        p = dict(plate="%s%d" % (prefix, ids[k]), image=image, dilution=rng.choice(DILUTIONS),
                 colonies=table["count"], border=table["border_count"])
        p["status"] = verdict(p["colonies"])
        p["cfu"] = expected_cfu(p["colonies"], p["dilution"], p["status"])
        plates.append(p)
        lines.append("%s,%s,%d" % (p["plate"], image, p["dilution"]))
    files["plates.csv"] = ("\n".join(lines) + "\n").encode()
    report = ["%s,%d,%d,%s,%s" % (p["plate"], p["colonies"], p["border"], p["cfu"], p["status"])
              for p in sorted(plates, key=lambda q: q["plate"])]
    return files, plates, report


SLIPS = ("none", "miscount", "border", "arith", "status", "missing", "zero_cfu")


def manual(rng, plates, extra_prefix):
    """The technician's sheet with planted slips. Returns (csv text, finding rows as tuples)."""
    sheet, found = [], []
    kinds = [rng.choice(SLIPS) for _ in plates]
    for p, slip in zip(plates, kinds):
        n, st = p["colonies"], p["status"]
        said, said_status = n, st
        if slip == "miscount":
            said = max(0, n + rng.choice([-2, -1, 1, 2]))
        elif slip == "border":
            said = n + p["border"] + 1
        if slip in ("miscount", "border"):
            said_status = verdict(said)
        if slip == "status":
            said_status = rng.choice([s for s in ("OK", "TFTC", "TNTC") if s != st])
        cfu = expected_cfu(said, p["dilution"], said_status)
        if slip == "arith":
            cfu = "%d" % (said * p["dilution"] * 10) if said_status == "OK" else "%d" % (said * p["dilution"])
        if slip == "zero_cfu":
            cfu = "0"
        if slip == "missing":
            found.append((p["plate"], "MISSING_PLATE", "", str(n)))
            continue
        sheet.append((p["plate"], str(said), cfu, said_status))
        if said != n:
            found.append((p["plate"], "COUNT", str(said), str(n)))
        right_cfu = expected_cfu(said, p["dilution"], said_status)
        if cfu != right_cfu:
            found.append((p["plate"], "CFU", cfu, right_cfu))
        if said_status != st:
            found.append((p["plate"], "STATUS", said_status, st))
    if rng.random() < 0.6:
        ghost = "%s%d" % (extra_prefix, rng.randint(100, 999))
        if all(ghost != p["plate"] for p in plates):
            c = rng.randint(4, 11)
            sheet.append((ghost, str(c), "%d" % (c * 100), "OK"))
            found.append((ghost, "UNKNOWN_PLATE", str(c), ""))
    rng.shuffle(sheet)
    text = "plate,colonies,cfu,status\n" + "".join(",".join(r) + "\n" for r in sheet)
    return text, sorted(found)
