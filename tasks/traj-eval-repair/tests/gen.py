"""Hidden benchmarks for traj-eval-repair, built from the seed with the answers planted.

Every run is built from a ground-truth trajectory: the estimate is the ground truth seen through a
planted similarity transform, with planted noise, drift, gaps, clock offsets and stamp jitter.
Which estimate stamp pairs with which ground-truth stamp is planted (margins keep every other
stamp out of reach), the tracking-loss and drift verdicts are planted with wide margins, and the
published table is written from the grader's own numbers with planted errors.

The numbers the grader expects are computed here with methods of its own: Horn's closed-form
unit-quaternion alignment (largest eigenvector of his 4x4 matrix, Jacobi rotations), relative
poses in quaternion algebra (w, x, y, z), angles by atan2.
"""
import bisect
import json
import math

# ---------------------------------------------------------------- quaternions (w, x, y, z)


def qmul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def qconj(q):
    return (q[0], -q[1], -q[2], -q[3])


def qunit(q):
    n = math.sqrt(sum(c * c for c in q))
    return tuple(c / n for c in q)


def qrot(q, v):
    r = qmul(qmul(q, (0.0, v[0], v[1], v[2])), qconj(q))
    return (r[1], r[2], r[3])


def qaxis(axis, angle):
    n = math.sqrt(sum(c * c for c in axis)) or 1.0
    s = math.sin(angle / 2) / n
    return (math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s)


def qangle(q):
    """Rotation angle of a unit quaternion, radians in [0, pi]."""
    v = math.sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    return 2.0 * math.atan2(v, abs(q[0]))


def q_euler(yaw, pitch, roll):
    return qmul(qmul(qaxis((0, 0, 1), yaw), qaxis((0, 1, 0), pitch)), qaxis((1, 0, 0), roll))


def vsub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def vnorm(a):
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


# ---------------------------------------------------------------- Horn's method


def jacobi_top(n4):
    """Eigenvector of the largest eigenvalue of a symmetric 4x4 matrix (cyclic Jacobi)."""
    a = [row[:] for row in n4]
    v = [[1.0 if i == j else 0.0 for j in range(4)] for i in range(4)]
    for _ in range(100):
        off = sum(a[i][j] ** 2 for i in range(4) for j in range(4) if i != j)
        if off <= 1e-30 * max(sum(a[i][i] ** 2 for i in range(4)), 1e-300):
            break
        for p in range(3):
            for q in range(p + 1, 4):
                if abs(a[p][q]) < 1e-300:
                    continue
                phi = 0.5 * math.atan2(2 * a[p][q], a[q][q] - a[p][p])
                c, s = math.cos(phi), math.sin(phi)
                for k in range(4):
                    akp, akq = a[k][p], a[k][q]
                    a[k][p], a[k][q] = c * akp - s * akq, s * akp + c * akq
                for k in range(4):
                    apk, aqk = a[p][k], a[q][k]
                    a[p][k], a[q][k] = c * apk - s * aqk, s * apk + c * aqk
                for k in range(4):
                    vkp, vkq = v[k][p], v[k][q]
                    v[k][p], v[k][q] = c * vkp - s * vkq, s * vkp + c * vkq
    best = max(range(4), key=lambda i: a[i][i])
    return [v[k][best] for k in range(4)]


def horn(src, dst, with_scale):
    """Horn (1987): unit quaternion q, scale s and t minimising sum |dst - (s R(q) src + t)|^2."""
    n = len(src)
    ms = [sum(p[k] for p in src) / n for k in range(3)]
    md = [sum(p[k] for p in dst) / n for k in range(3)]
    m = [[0.0] * 3 for _ in range(3)]
    ss = 0.0
    for a, b in zip(src, dst):
        x = vsub(a, ms)
        y = vsub(b, md)
        ss += x[0] * x[0] + x[1] * x[1] + x[2] * x[2]
        for i in range(3):
            for j in range(3):
                m[i][j] += x[i] * y[j]
    sxx, sxy, sxz = m[0]
    syx, syy, syz = m[1]
    szx, szy, szz = m[2]
    n4 = [[sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
          [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
          [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
          [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz]]
    q = qunit(tuple(jacobi_top(n4)))
    if with_scale:
        num = 0.0
        for a, b in zip(src, dst):
            r = qrot(q, vsub(a, ms))
            y = vsub(b, md)
            num += r[0] * y[0] + r[1] * y[1] + r[2] * y[2]
        s = num / ss
    else:
        s = 1.0
    rm = qrot(q, ms)
    t = (md[0] - s * rm[0], md[1] - s * rm[1], md[2] - s * rm[2])
    return s, q, t


def h_apply(s, q, t, p):
    r = qrot(q, p)
    return (s * r[0] + t[0], s * r[1] + t[1], s * r[2] + t[2])


# ---------------------------------------------------------------- trajectory files


def fmt_line(t, p, q_wxyz, sep):
    w, x, y, z = q_wxyz
    vals = ["%.6f" % t] + ["%.6f" % c for c in p] + ["%.7f" % c for c in (x, y, z, w)]
    return sep.join(vals)


def parse_file(text):
    """Grader's own reader: [(stamp, pos, quat wxyz)] sorted by stamp."""
    out = []
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        f = [float(x) for x in line.replace(",", " ").split()]
        out.append((f[0], (f[1], f[2], f[3]), qunit((f[7], f[4], f[5], f[6]))))
    out.sort(key=lambda r: r[0])
    return out


def write_traj(rng, poses, shuffle=False, style=None):
    """poses: (stamp, pos, q wxyz). Returns the file text (separators and comments vary)."""
    style = style or rng.choice(["space", "space", "tab", "comma"])
    sep = {"space": " ", "tab": "\t", "comma": ","}[style]
    lines = [fmt_line(t, p, q, sep) for t, p, q in poses]
    if shuffle:
        rng.shuffle(lines)
    head = ["# timestamp tx ty tz qx qy qz qw"]
    if rng.random() < 0.5:
        head.insert(0, "# generated by a recorder")
    if rng.random() < 0.3:
        k = rng.randrange(len(lines))
        lines.insert(k, "")
    return "\n".join(head + lines) + "\n"


# ---------------------------------------------------------------- synthesis


def make_gt(rng, duration, rate, jitter, planar):
    t0 = round(rng.uniform(1.5e9, 1.7e9), 3)
    stamps = []
    t = t0
    while t < t0 + duration:
        stamps.append(round(t, 6))
        t += (1.0 / rate) * (1 + rng.uniform(-jitter, jitter))
    axes = []
    for k in range(3):
        comps = []
        for _ in range(2):
            amp = rng.uniform(1.0, 4.0) if k < 2 else rng.uniform(0.2, 0.8)
            comps.append((amp, rng.uniform(0.08, 0.35) * 2 * math.pi / 2, rng.uniform(0, 6.3)))
        axes.append((rng.uniform(-3, 3), rng.uniform(-0.4, 0.4) if k < 2 else 0.0, comps))
    ang = [(rng.uniform(0.2, 1.2), rng.uniform(0.05, 0.25), rng.uniform(0, 6.3)) for _ in range(3)]
    yaw0 = rng.uniform(-3, 3)
    wob = (rng.uniform(0.003, 0.006), rng.uniform(0.5, 2.0), rng.uniform(0, 6.3))
    poses = []
    for t in stamps:
        u = t - t0
        p = []
        for k, (c0, v, comps) in enumerate(axes):
            x = c0 + v * u + sum(a * math.sin(w * u + ph) for a, w, ph in comps)
            if k == 2 and planar:
                # a floor robot: the height only wobbles by millimetres
                x = round(c0, 3) + wob[0] * math.sin(wob[1] * u + wob[2]) + rng.gauss(0, 0.001)
            p.append(x)
        yaw = yaw0 + ang[0][0] * math.sin(ang[0][1] * u + ang[0][2]) + 0.05 * u
        pitch = 0.0 if planar else 0.25 * ang[1][0] * math.sin(ang[1][1] * u + ang[1][2])
        roll = 0.0 if planar else 0.25 * ang[2][0] * math.sin(ang[2][1] * u + ang[2][2])
        poses.append((t, tuple(round(c, 6) for c in p), q_euler(yaw, pitch, roll)))
    return poses


def random_rotation(rng):
    return qunit((rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)))


def det3(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def cross_cov(a_pts, b_pts):
    n = len(a_pts)
    ma = [sum(p[k] for p in a_pts) / n for k in range(3)]
    mb = [sum(p[k] for p in b_pts) / n for k in range(3)]
    m = [[0.0] * 3 for _ in range(3)]
    for a, b in zip(a_pts, b_pts):
        x, y = vsub(a, ma), vsub(b, mb)
        for i in range(3):
            for j in range(3):
                m[i][j] += x[i] * y[j]
    return m


class RunSpec:
    """What is planted in one run."""

    def __init__(self, **kw):
        self.sensor = "stereo"
        self.scale = 1.0          # planted est = scale * R * gt + t
        self.est_rate = 20.0
        self.rate2 = None         # rate after the middle (rate change)
        self.drop = 0.0           # probability of dropping a frame
        self.noise = 0.01
        self.rw = 0.0             # random-walk step (m)
        self.rot_noise = 0.2      # degrees
        self.drift = 0.0          # planted drift amplitude (m at the end)
        self.gaps = []            # (start fraction, length s) interior gaps
        self.late_start = 0.0     # seconds missing at the start
        self.early_end = 0.0      # seconds missing at the end
        self.decoys = 0
        self.duplicates = 0
        self.jitter = 0.003       # |est stamp - gt stamp| bound
        self.dup_range = (0.008, 0.012)
        self.shuffle = False
        self.exact_rot = False    # orientation copied from the ground truth (an oracle baseline)
        self.__dict__.update(kw)


def make_run(rng, gt, spec, tol):
    """Returns (est poses as written [(t_gtclock, p, q)], planted pairs [(est_idx, gt_idx)], true
    gt-clock stamps of all estimate poses)."""
    n = len(gt)
    t_first, t_last = gt[0][0], gt[-1][0]
    gt_rate = (n - 1) / (t_last - t_first)
    mid = t_first + 0.5 * (t_last - t_first)
    chosen = []
    k = rng.randrange(0, 3)
    while k < n:
        t = gt[k][0]
        rate = spec.rate2 if (spec.rate2 and t > mid) else spec.est_rate
        keep = True
        if t < t_first + spec.late_start or t > t_last - spec.early_end:
            keep = False
        for f, ln in spec.gaps:
            g0 = t_first + f * (t_last - t_first)
            if g0 <= t < g0 + ln:
                keep = False
        if keep and spec.drop and rng.random() < spec.drop and chosen and k < n - 4:
            keep = False
        if keep:
            chosen.append(k)
        nxt = t + 1.0 / rate - 0.5 / gt_rate
        k += 1
        while k < n and gt[k][0] < nxt:
            k += 1
    # planted similarity: est = s * R * p + t
    q_plant = (1.0, 0.0, 0.0, 0.0) if spec.exact_rot else random_rotation(rng)
    t_plant = (rng.uniform(-20, 20), rng.uniform(-20, 20), rng.uniform(-5, 5))
    s_plant = spec.scale
    walk = [0.0, 0.0, 0.0]
    drift_dir = qrot(random_rotation(rng), (1.0, 0.0, 0.0))
    dur = t_last - t_first
    noisy = []
    for k in chosen:
        t, p, q = gt[k]
        walk = [w + rng.gauss(0, spec.rw) for w in walk]
        u = (t - t_first) / dur
        d = spec.drift * u * u
        pn = tuple(p[i] + rng.gauss(0, spec.noise) + walk[i] + d * drift_dir[i] for i in range(3))
        rn = qaxis((rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)),
                   math.radians(abs(rng.gauss(0, spec.rot_noise))))
        noisy.append((k, pn, q if spec.exact_rot else qmul(q, rn)))
    zs = [g[1][2] for g in gt]
    if max(zs) - min(zs) < 0.05:
        # A floor robot: the estimate's height error mirrors the true wobble, so the
        # cross-covariance has a negative determinant and an alignment without the reflection
        # guard returns a mirror image (a worse fit than the best rotation).
        cz = sum(zs) / len(zs)
        a = rng.uniform(0.6, 1.4)
        noisy = [(k, (pn[0], pn[1], cz - a * (gt[k][1][2] - cz) + rng.gauss(0, 0.0005)), qq)
                 for k, pn, qq in noisy]
        if det3(cross_cov([pn for _, pn, _ in noisy], [gt[k][1] for k, _, _ in noisy])) >= 0:
            raise ValueError("planted reflection failed")
    est = []
    pairs = []
    for k, pn, qn in noisy:
        pe = h_apply(s_plant, q_plant, t_plant, pn)
        qe = qn if spec.exact_rot else qmul(q_plant, qn)
        te = gt[k][0] + rng.uniform(-spec.jitter, spec.jitter)
        est.append((te, pe, qe, k))
    # duplicates: a second pose near an already matched stamp (a relocalisation glitch)
    base = list(est)
    for _ in range(spec.duplicates):
        te, pe, qe, k = base[rng.randrange(1, len(base) - 1)]
        d = rng.uniform(*spec.dup_range) * rng.choice([-1, 1])
        glitch = (pe[0] + 0.4 * s_plant, pe[1] - 0.3 * s_plant, pe[2])
        est.append((gt[k][0] + d, glitch, qe, None))
    # decoys: poses half way between two ground-truth stamps (nothing within tolerance)
    for _ in range(spec.decoys):
        k = rng.randrange(1, n - 2)
        te = 0.5 * (gt[k][0] + gt[k + 1][0])
        est.append((te, h_apply(s_plant, q_plant, t_plant, gt[k][1]), qmul(q_plant, gt[k][2]), None))
    est.sort(key=lambda e: e[0])
    est = [(round(te, 6), tuple(round(c, 6) for c in pe), qe, k) for te, pe, qe, k in est]
    stamps = [e[0] for e in est]
    if len(set(stamps)) != len(stamps):
        raise ValueError("duplicate estimate stamps")
    gts = [g[0] for g in gt]
    for i, (te, _, _, k) in enumerate(est):
        # construction check: the planted partner is the only stamp within reach (margin 1 ms),
        # or, for an unmatched pose, nothing else is within reach once its stamp is taken.
        lo = bisect.bisect_left(gts, te - tol - 0.001)
        hi = bisect.bisect_right(gts, te + tol + 0.001)
        near = [j for j in range(lo, hi)]
        if k is not None:
            d_true = abs(gts[k] - te)
            if d_true > tol - 0.001:
                raise ValueError("planted partner out of reach")
            for j in near:
                if j != k and abs(gts[j] - te) < d_true + 0.002:
                    raise ValueError("ambiguous partner")
            pairs.append((i, k))
        else:
            for j in near:
                if abs(abs(gts[j] - te) - tol) < 0.001:
                    raise ValueError("stamp on the tolerance edge")
    matched_gt = {k for _, k in pairs}
    for i, (te, _, _, k) in enumerate(est):
        if k is None:
            lo = bisect.bisect_left(gts, te - tol)
            hi = bisect.bisect_right(gts, te + tol)
            if any(j not in matched_gt and abs(gts[j] - te) <= tol for j in range(lo, hi)):
                raise ValueError("unmatched pose would find a free partner")
            # a free partner closer than a taken one cannot steal it: taken ones are nearer
            for j in range(lo, hi):
                for i2, k2 in pairs:
                    if k2 == j and abs(gts[j] - te) <= abs(gts[j] - est[i2][0]) + 0.001:
                        raise ValueError("decoy competes with a planted pair")
    return est, pairs


def expected_run(est, gt, pairs, with_scale, delta, rtol_s):
    """The grader's numbers for one run: pairs, scale, ATE, RPE, drift."""
    e_pos = [est[i][1] for i, _ in pairs]
    g_pos = [gt[j][1] for _, j in pairs]
    s, q, t = horn(e_pos, g_pos, with_scale)
    errs = [vnorm(vsub(g, h_apply(s, q, t, e))) for e, g in zip(e_pos, g_pos)]
    ate = math.sqrt(sum(x * x for x in errs) / len(errs))
    taus = [gt[j][0] for _, j in pairs]
    te2 = re2 = 0.0
    m = 0
    j = 0
    ambiguous = False
    for kk, tk in enumerate(taus):
        target = tk + delta
        while j + 1 < len(taus) and taus[j + 1] <= target:
            j += 1
        cands = [c for c in (j, j + 1) if c < len(taus)]
        best = min(cands, key=lambda c: (abs(taus[c] - target), c))
        dists = sorted(abs(taus[c] - target) for c in cands)
        if len(dists) == 2 and dists[1] - dists[0] < 1e-5:
            ambiguous = True
        if abs(abs(taus[best] - target) - rtol_s) < 1e-5:
            ambiguous = True
        if best <= kk or abs(taus[best] - target) > rtol_s:
            continue
        ia, ga = pairs[kk]
        ib, gb = pairs[best]
        qg = qmul(qconj(gt[ga][2]), gt[gb][2])
        qe = qmul(qconj(est[ia][2]), est[ib][2])
        dg = qrot(qconj(gt[ga][2]), vsub(gt[gb][1], gt[ga][1]))
        de = qrot(qconj(est[ia][2]), vsub(est[ib][1], est[ia][1]))
        de = (s * de[0], s * de[1], s * de[2])
        te2 += vnorm(vsub(de, dg)) ** 2
        re2 += math.degrees(qangle(qmul(qconj(qg), qe))) ** 2
        m += 1
    length = sum(vnorm(vsub(g_pos[i + 1], g_pos[i])) for i in range(len(g_pos) - 1))
    return {
        "pairs": len(pairs), "scale": s, "ate_rmse": ate,
        "rpe_trans": math.sqrt(te2 / m) if m else None,
        "rpe_rot": math.sqrt(re2 / m) if m else None, "rpe_n": m,
        "drift_pct": 100.0 * max(errs) / length, "ambiguous": ambiguous,
    }


# ---------------------------------------------------------------- benchmarks

SENSORS_METRIC = ["stereo", "rgbd", "stereo-inertial", "monocular-inertial"]
ALL_CODES = ("ATE_MISMATCH", "DRIFT", "NO_RUN", "RPE_MISMATCH", "TRACKING_LOSS")


def sim3(sensor):
    return sensor == "monocular"


def sig4(x):
    return "%.4g" % x


def build(rng, kind, variant=0):
    """One hidden benchmark: returns (files {relpath: bytes}, expected)."""
    for _ in range(40):
        try:
            return _build(rng, kind, variant)
        except ValueError:
            continue
    raise RuntimeError("no valid %s benchmark after 40 draws" % kind)


def _build(rng, kind, variant):
    dense = kind == "association" and variant % 2 == 0
    if dense:
        gt_rate, gt_jit, tol = 100.0, 0.04, 0.02
    elif kind == "association":
        gt_rate, gt_jit, tol = 25.0, 0.025, 0.02
    else:
        gt_rate, gt_jit, tol = 30.0, 0.05, 0.01
    delta = rng.choice([0.5, 1.0, 1.5, 2.0])
    rpe_tol = rng.choice([0.03, 0.04, 0.05])
    max_gap = rng.choice([0.5, 0.75, 1.0])
    bound = rng.choice([1.5, 2.0, 3.0])
    rtol = rng.choice([0.05, 0.1])
    bench = {
        "name": "hidden-%s" % kind,
        "association": {"tolerance_s": tol},
        "rpe": {"delta_s": delta, "tolerance_s": rpe_tol},
        "audit": {"rtol": rtol, "max_gap_s": max_gap, "drift_bound_pct": bound},
        "sequences": {}, "systems": {}, "runs": [],
    }
    files = {}
    seq_names = rng.sample(["atrium", "corridor", "lab", "loading-bay", "parking", "stairwell",
                            "warehouse", "yard"], 2)
    gts, gts_read = {}, {}
    for i, name in enumerate(seq_names):
        planar = i == 0
        duration = rng.uniform(16, 24) if not dense else rng.uniform(10, 14)
        gt = make_gt(rng, duration, gt_rate, gt_jit, planar)
        gts[name] = gt
        path = "groundtruth/%s.txt" % name
        bench["sequences"][name] = {"groundtruth": path}
        text = write_traj(rng, gt, style="space")
        files[path] = text.encode()
        gts_read[name] = parse_file(text)
    if kind == "monocular":
        sensors = ["monocular", "monocular", "monocular-inertial"]
    elif kind in ("rigid", "rpe"):
        sensors = rng.sample(SENSORS_METRIC, 2) + [rng.choice(["monocular"] + SENSORS_METRIC)]
    else:
        sensors = [rng.choice(SENSORS_METRIC), "monocular", rng.choice(SENSORS_METRIC)]
    sys_names = rng.sample(["orb-a", "dso-b", "vins-c", "svo-d", "kimera-e", "basalt-f",
                            "openvslam-g", "rtab-h"], len(sensors))
    for name, sensor in zip(sys_names, sensors):
        off = 0.0 if kind == "rigid" and rng.random() < 0.3 else round(rng.uniform(-0.8, 0.8), 3)
        bench["systems"][name] = {"sensor": sensor, "clock_offset_s": off}
    runs = [(s, q) for s in sys_names for q in seq_names]
    skipped = None
    if kind == "audit":
        skipped = runs.pop(rng.randrange(len(runs)))
    rng.shuffle(runs)
    exp_runs = []
    plan = {}
    for n_run, (sname, qname) in enumerate(runs):
        sensor = bench["systems"][sname]["sensor"]
        offset = bench["systems"][sname]["clock_offset_s"]
        entry = {"system": sname, "sequence": qname, "file": "runs/%s/%s.txt" % (sname, qname)}
        if kind in ("association", "rigid") and (n_run % 3 == 1 or rng.random() < 0.2):
            offset = round(offset + rng.choice([-1, 1]) * rng.uniform(0.06, 0.5), 3)
            entry["clock_offset_s"] = offset
        spec = RunSpec(sensor=sensor, noise=rng.uniform(0.004, 0.03), rw=rng.uniform(0, 0.002),
                       rot_noise=rng.uniform(0.1, 0.6), est_rate=rng.choice([10.0, 15.0, 20.0]))
        if kind == "rigid" and n_run == 0:
            spec.exact_rot = True
            spec.sensor = sensor = bench["systems"][sname]["sensor"] = "rgbd"
        if sensor == "monocular":
            spec.scale = rng.choice([rng.uniform(0.15, 0.6), rng.uniform(1.8, 6.0)])
        elif sensor == "monocular-inertial":
            spec.scale = rng.uniform(0.97, 0.99) if rng.random() < 0.5 else rng.uniform(1.01, 1.03)
        if kind == "association":
            spec.jitter = 0.002
            spec.shuffle = rng.random() < 0.5
            if dense:
                spec.est_rate = rng.choice([15.0, 20.0, 25.0])
            else:
                spec.duplicates = rng.randint(3, 8)
                spec.est_rate = rng.choice([8.0, 10.0, 12.5])
        else:
            spec.decoys = rng.randint(0, 4)
        if kind == "rpe":
            spec.est_rate = rng.choice([20.0, 30.0])
            spec.rate2 = rng.choice([5.0, 7.5, 10.0])
            spec.drop = rng.uniform(0.05, 0.2)
            spec.gaps = [(rng.uniform(0.1, 0.8), rng.uniform(0.3, 1.2))]
        codes = set()
        if kind == "audit":
            spec.decoys = 0
            feat = n_run % 4
            if feat == 1 or rng.random() < 0.15:
                which = ["start", "end", "gap"][(variant + n_run // 4) % 3]
                ln = rng.uniform(2.2, 4.0) * max_gap
                if which == "gap":
                    spec.gaps = [(rng.uniform(0.2, 0.7), ln)]
                elif which == "start":
                    spec.late_start = ln
                else:
                    spec.early_end = ln
                codes.add("TRACKING_LOSS")
            if feat == 2:
                spec.drift = 1.0
                codes.add("DRIFT")
        gt = gts[qname]

        def realise():
            # the numbers are computed from the files as written (read back by the grader)
            est, pairs = make_run(rng, gt, spec, tol)
            written = [(round(te - offset, 6), pe, qe) for te, pe, qe, _ in est]
            text = write_traj(rng, written, shuffle=spec.shuffle)
            got = expected_run(parse_file(text), gts_read[qname], pairs, sim3(sensor), delta, rpe_tol)
            return est, pairs, text, got

        est, pairs, text, got = realise()
        if got["ambiguous"] or got["rpe_n"] < 5:
            raise ValueError("ambiguous RPE partner")
        if spec.drift:
            # scale the planted drift until the verdict has a wide margin
            for _ in range(6):
                if got["drift_pct"] >= 2.2 * bound:
                    break
                spec.drift *= max(1.5, 2.6 * bound / max(got["drift_pct"], 1e-3))
                est, pairs, text, got = realise()
            if got["drift_pct"] < 2.2 * bound or got["ambiguous"] or got["rpe_n"] < 5:
                raise ValueError("drift not planted")
        elif got["drift_pct"] > 0.45 * bound:
            raise ValueError("clean run too close to the drift bound")
        # tracking-loss margin (on the ground-truth clock)
        st = [e[0] for e in est]
        gaps = [st[i + 1] - st[i] for i in range(len(st) - 1)] + [st[0] - gt[0][0], gt[-1][0] - st[-1]]
        if "TRACKING_LOSS" in codes:
            if max(gaps) < 2.0 * max_gap:
                raise ValueError("loss not planted")
        elif max(gaps) > 0.6 * max_gap and kind == "audit":
            raise ValueError("clean run too close to the gap bound")
        files[entry["file"]] = text.encode()
        bench["runs"].append(entry)
        got.update(system=sname, sequence=qname, sensor=sensor,
                   alignment="sim3" if sim3(sensor) else "se3", codes=codes,
                   max_gap=max(gaps))
        if sensor == "monocular":
            got["se3_ate"] = expected_run(parse_file(text), gts_read[qname], pairs, False, delta, rpe_tol)["ate_rmse"]
        exp_runs.append(got)
        plan[(sname, qname)] = spec
    published = None
    if kind == "audit":
        published = []
        rows = []
        for i, r in enumerate(exp_runs):
            codes = set(r["codes"])
            ate, rt, rr = r["ate_rmse"], r["rpe_trans"], r["rpe_rot"]
            feat = i % 4
            pick = rng.random()
            if feat == 3 or pick < 0.2:
                if r["sensor"] == "monocular" and r["se3_ate"] > (1 + 2.5 * rtol) * ate and rng.random() < 0.5:
                    ate = r["se3_ate"]   # published with a rigid alignment
                else:
                    ate *= rng.choice([rng.uniform(1 + 2.5 * rtol, 1.8), rng.uniform(0.45, 1 - 2.5 * rtol)])
                codes.add("ATE_MISMATCH")
            if feat == 0 or pick > 0.85:
                if rng.random() < 0.5:
                    rt *= rng.choice([rng.uniform(1 + 2.5 * rtol, 1.8), rng.uniform(0.45, 1 - 2.5 * rtol)])
                else:
                    rr *= rng.choice([rng.uniform(1 + 2.5 * rtol, 1.8), rng.uniform(0.45, 1 - 2.5 * rtol)])
                codes.add("RPE_MISMATCH")
            vals = []
            for name, v, exact in (("ate", ate, r["ate_rmse"]), ("rt", rt, r["rpe_trans"]), ("rr", rr, r["rpe_rot"])):
                if v == exact and rng.random() < 0.5:
                    v *= 1 + rng.choice([-1, 1]) * rng.uniform(0.1, 0.4) * rtol
                vals.append(sig4(v))
            rows.append(([r["system"], r["sequence"]] + vals, sorted(codes)))
        sname, qname = skipped
        rows.append(([sname, qname, sig4(rng.uniform(0.02, 0.3)), sig4(rng.uniform(0.01, 0.1)),
                      sig4(rng.uniform(0.2, 2.0))], ["NO_RUN"]))
        rows.append((["ghost-z", seq_names[0], sig4(rng.uniform(0.02, 0.3)),
                      sig4(rng.uniform(0.01, 0.1)), sig4(rng.uniform(0.2, 2.0))], ["NO_RUN"]))
        rng.shuffle(rows)
        text = "system,sequence,ate_rmse,rpe_trans,rpe_rot\n" + "".join(",".join(r) + "\n" for r, _ in rows)
        files["published.csv"] = text.encode()
        published = [(r[0], r[1], c) for r, c in rows]
    files["benchmark.json"] = (json.dumps(bench, indent=2) + "\n").encode()
    return files, {"runs": exp_runs, "audit": published}
