"""Hidden-case generator: logit files (calibrated scores, over/under-confident scaling, split
shift, exact ties on bin edges, large offsets, saturated wrong rows), paper configs and releases
of claims with planted faults. Expected numbers come from ref.py; audit codes from the plan."""
import json
import math

import ref

DATASETS = {"cifar10": 10, "svhn": 10, "sst5": 5, "agnews": 4, "mnli": 3, "fmnist": 10, "trec6": 6}
MODELS = ["resnet-110", "densenet-40", "wrn-28-10", "lenet-5", "bert-base", "vit-b16", "mlp-mixer", "convnext-t"]
BIN_CHOICES = [10, 12, 15, 20, 30]
METRICS = ["accuracy", "ece", "ace", "cwece", "nll", "brier"]
BINNED = ("ece", "ace", "cwece")


def _softmax(s):
    m = max(s)
    e = [math.exp(x - m) for x in s]
    t = sum(e)
    return [x / t for x in e]


def _draw(rng, p):
    u, acc = rng.random(), 0.0
    for k, q in enumerate(p):
        acc += q
        if u < acc:
            return k
    return len(p) - 1


def logit_text(rng, k, n_val, n_test, tau_val, tau_test, ties=0.06, offset=False, saturated=0.0,
               missing_class=False):
    """CSV text of one model's logits on one dataset."""
    head = "id,split,label," + ",".join("z%d" % j for j in range(k))
    lines = [head]
    classes = list(range(k))
    if missing_class:
        classes = classes[:-1] if rng.random() < 0.5 else classes[1:]
    order = ["val"] * n_val + ["test"] * n_test
    if rng.random() < 0.5:
        rng.shuffle(order)
    for i, split in enumerate(order):
        tau = tau_val if split == "val" else tau_test
        base = rng.uniform(1000, 3000) if offset else 0.0
        u = rng.random()
        if u < ties:
            m = rng.choice([x for x in (2, 3, 4, 5) if x <= len(classes)])
            tied = sorted(rng.sample(classes, m))
            v = round(rng.gauss(0, 2), 1)
            z = [v - rng.uniform(900, 1200) for _ in range(k)]
            for j in tied:
                z[j] = v
            y = rng.choice(tied)
        elif split == "test" and u < ties + saturated:
            y = rng.choice(classes)
            wrong = rng.choice([c for c in range(k) if c != y])
            v = rng.gauss(0, 2)
            z = [v - rng.uniform(2, 8) for _ in range(k)]
            z[wrong] = v
            z[y] = v - rng.uniform(80, 160)
        else:
            s = [rng.gauss(0, 1) for _ in range(k)]
            f = rng.choice(classes)
            s[f] += rng.uniform(1.0, 4.0)
            if missing_class:
                for j in range(k):
                    if j not in classes:
                        s[j] -= 6
            y = _draw(rng, _softmax(s))
            if y not in classes:
                y = f
            z = [tau * x for x in s]
        lines.append("%s-%04d,%s,%d,%s" % (split[0], i, split, y, ",".join("%.4f" % (x + base) for x in z)))
    return "\n".join(lines) + "\n"


def model_file(rng, kind, k=None):
    k = k or rng.choice([3, 4, 5, 6, 10])
    n_val, n_test = rng.randint(120, 220), rng.randint(160, 300)
    tau = rng.uniform(1.4, 3.2)
    kw = {}
    if kind == "under":
        tau = rng.uniform(0.35, 0.75)
    elif kind == "offset":
        kw = {"offset": True, "saturated": 0.02}
    elif kind == "saturated":
        kw = {"saturated": 0.03}
    elif kind == "clamp":
        tau = rng.uniform(0.02, 0.035)
    elif kind == "missing":
        kw = {"missing_class": True}
    elif kind == "hot":
        tau = rng.uniform(0.04, 0.08)
    shift = rng.uniform(1.15, 1.5) if rng.random() < 0.5 else 1 / rng.uniform(1.15, 1.5)
    return logit_text(rng, k, n_val, n_test, tau, tau * shift, **kw)


def metrics_case(rng, kind):
    text = model_file(rng, kind)
    args = {"bins": rng.choice(BIN_CHOICES), "temperature": round(rng.uniform(0.5, 3.0), 4),
            "split": rng.choice(["test", "test", "val", "all"])}
    return text, args


def expected_metrics(text, args):
    labels, logits = ref.pick(ref.parse(text), args["split"])
    return ref.metrics(labels, logits, args["bins"], args["temperature"])


def expected_fit(text):
    data = ref.parse(text)
    labels, logits = ref.pick(data, "val")
    t = ref.fit(labels, logits)
    return {"temperature": t, "val_nll_before": ref.nll(labels, logits, 1.0), "val_nll_after": ref.nll(labels, logits, t)}


def paper(rng, n_runs, kinds=None):
    """A paper folder: config.json and logits/*.csv."""
    kinds = kinds or ["plain", "offset", "saturated", "under", "missing", "plain"]
    ds = rng.sample(sorted(DATASETS), 2)
    models = rng.sample(MODELS, (n_runs + 1) // 2)
    runs, files = [], {}
    pool = [(m, d) for m in models for d in ds]
    rng.shuffle(pool)
    for i, (m, d) in enumerate(pool[:n_runs]):
        path = "logits/%s__%s.csv" % (m, d)
        files[path] = model_file(rng, kinds[i % len(kinds)], DATASETS[d]).encode()
        runs.append({"model": m, "dataset": d, "logits": path})
    bins = rng.choice(BIN_CHOICES)
    files["config.json"] = (json.dumps({"bins": bins, "runs": runs}, indent=1) + "\n").encode()
    return files


def expected_table(files):
    """Reference rows: (model, dataset, n_test, accuracy, temperature, {metric: (before, after_fn)})."""
    cfg = json.loads(files["config.json"].decode())
    out = []
    for run in cfg["runs"]:
        data = ref.parse(files[run["logits"]].decode())
        vl, vz = ref.pick(data, "val")
        tl, tz = ref.pick(data, "test")
        out.append({"model": run["model"], "dataset": run["dataset"], "n_test": len(tl),
                    "temperature": ref.fit(vl, vz), "labels": tl, "logits": tz, "bins": cfg["bins"]})
    return out


# ---- releases ---------------------------------------------------------------------------------

PLANS = [("", ""), ("", ""), ("", ""), ("test_fit", ""), ("temperature", ""), ("", "split"), ("", "bins"),
         ("", "bins"), ("", "value"), ("test_fit", "bins"), ("temperature", "split"), ("test_fit", "value"),
         ("", "split"), ("test_fit", "")]


class _Vals:
    def __init__(self, data):
        self.data = data
        self.cache = {}
        self.temps = {}

    def temp(self, split):
        if split not in self.temps:
            self.temps[split] = ref.fit(*ref.pick(self.data, split))
        return self.temps[split]

    def x(self, split, bins, t, metric):
        key = (split, t)
        if key not in self.cache:
            labels, logits = ref.pick(self.data, split)
            self.cache[key] = (labels, logits, ref.probs(logits, t), {})
        labels, logits, p, per_bins = self.cache[key]
        if metric == "nll":
            return ref.nll(labels, logits, t)
        if bins not in per_bins:
            per_bins[bins] = ref.from_probs(labels, p, bins)
        return per_bins[bins][metric]


def release(rng, n_claims):
    """A release folder (protocol.json, logits, claims.csv) and {claim: sorted codes}."""
    bins = rng.choice(BIN_CHOICES)
    files, vals = {}, {}
    ds = rng.sample(sorted(DATASETS), 2)
    for m in rng.sample(MODELS, 2):
        for d in ds:
            while True:
                text = model_file(rng, rng.choice(["plain", "plain", "offset", "saturated", "under"]), DATASETS[d])
                v = _Vals(ref.parse(text))
                if abs(v.temp("val") - v.temp("test")) > 0.02 and 0.06 < v.temp("test") < 19.9 and 0.06 < v.temp("val") < 19.9:
                    break
            path = "logits/%s__%s.csv" % (m, d)
            files[path] = text.encode()
            vals[path] = v
    plans = list(PLANS)
    rng.shuffle(plans)
    plans = plans[:n_claims]
    paths = sorted(vals)
    rows, want = [], {}
    for i, (tcode, vcode) in enumerate(plans):
        name = "C%02d" % (i + 1)
        for _ in range(200):
            path = rng.choice(paths)
            v = vals[path]
            metric = rng.choice(BINNED if vcode == "bins" else METRICS)
            scaling = "temperature" if tcode or rng.random() < 0.6 else "none"
            tv, tt = v.temp("val"), v.temp("test")
            if scaling == "none":
                t, tstr = 1.0, ""
            elif tcode == "test_fit":
                tstr = "%.4f" % tt
            elif tcode == "temperature":
                t = tv * (1 + rng.choice([-1, 1]) * rng.uniform(0.15, 0.4))
                if abs(t - tt) < 0.01:
                    continue
                tstr = "%.4f" % t
            else:
                tstr = "%.4f" % tv
            if tstr:
                t = float(tstr)
            true = v.x("test", bins, t, metric)
            onval = v.x("val", bins, t, metric)
            others = [v.x("test", b, t, metric) for b in range(5, 31) if b != bins] if metric in BINNED else []
            far = 2.5e-4
            if vcode == "":
                value = true
            elif vcode == "split":
                if abs(onval - true) < 1e-3:
                    continue
                value = onval
            elif vcode == "bins":
                cands = [b for b in range(5, 31) if b != bins and abs(v.x("test", b, t, metric) - true) > 1e-3
                         and abs(v.x("test", b, t, metric) - onval) > 1e-3]
                if not cands:
                    continue
                value = v.x("test", rng.choice(cands), t, metric)
            else:
                value = true * (1 + rng.choice([-1, 1]) * rng.uniform(0.06, 0.3))
                if metric == "accuracy":
                    value = min(value, 0.999)
                if abs(value - true) < 1e-3 or abs(value - onval) < 1e-3 or any(abs(value - o) < far for o in others):
                    continue
            vstr = "%.4f" % value
            # the planted reading must be the only one the rules find
            val_f = float(vstr)
            if vcode != "" and abs(val_f - true) <= 1e-4 + far:
                continue
            if vcode == "bins" and abs(val_f - onval) <= 1e-4 + far:
                continue
            if vcode in ("split", "value") or vcode == "":
                pass
            break
        else:
            raise RuntimeError("could not plant %s/%s" % (tcode, vcode))
        rows.append("%s,%s,%s,%s,%s,%s,%s,%s" % (name, path.split("/")[1].split("__")[0], path.split("__")[1][:-4],
                                                path, metric, scaling, tstr, vstr))
        want[name] = sorted(c for c in (tcode, vcode) if c)
    files["protocol.json"] = (json.dumps({"bins": bins}) + "\n").encode()
    files["claims.csv"] = ("claim,model,dataset,logits,metric,scaling,temperature,value\n" + "\n".join(rows) + "\n").encode()
    return files, want
