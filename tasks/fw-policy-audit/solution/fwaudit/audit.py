"""Rule-base audit by region algebra: a match set is a list of disjoint boxes
(source interval x destination interval x service interval); regions are subtracted box by box."""
import os

from .addr import ConfigError
from .config import load


def _meets(a, b):
    return a[0] <= b[1] and b[0] <= a[1] and a[2] <= b[3] and b[2] <= a[3] and a[4] <= b[5] and b[4] <= a[5]


def _cut(a, b):
    """a minus b as disjoint boxes."""
    if not _meets(a, b):
        return [a]
    pieces, cur = [], list(a)
    for k in (0, 2, 4):
        if cur[k] < b[k]:
            part = list(cur)
            part[k + 1] = b[k] - 1
            pieces.append(tuple(part))
            cur[k] = b[k]
        if cur[k + 1] > b[k + 1]:
            part = list(cur)
            part[k] = b[k + 1] + 1
            pieces.append(tuple(part))
            cur[k + 1] = b[k + 1]
    return pieces


def minus(region, boxes):
    for b in boxes:
        if not region:
            break
        region = [p for a in region for p in _cut(a, b)]
    return region


def touches(region, boxes):
    return any(_meets(a, b) for a in region for b in boxes)


def boxes_of(src, dst, svc):
    return [(s0, s1, d0, d1, v0, v1) for s0, s1 in src for d0, d1 in dst for v0, v1 in svc]


def load_policy(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) != 7 or words[3].lower() != "from" or words[5].lower() != "to":
                raise ConfigError("bad policy statement at line %d" % n)
            kind = words[1].lower()
            if kind not in ("forbid", "require"):
                raise ConfigError("unknown policy kind %r" % words[1])
            out.append((words[0], kind, words[2], words[4], words[6]))
    return out


def analyse(cfg, policy):
    rules = cfg.rules
    boxes = [boxes_of(r.src, r.dst, r.svc) for r in rules]
    effective, shadowed, redundant = [], [], []
    for i, r in enumerate(rules):
        eff = list(boxes[i])
        for j in range(i):
            eff = minus(eff, boxes[j])
        effective.append(eff)
        if not eff:
            shadowed.append(r.seq)
            continue
        rem, same = eff, True
        for j in range(i + 1, len(rules)):
            if rules[j].action != r.action and touches(rem, boxes[j]):
                same = False
                break
            rem = minus(rem, boxes[j])
        if same and rem and r.action == "permit":
            same = False
        if same:
            redundant.append(r.seq)
    violations = []
    for sid, kind, svc, src, dst in policy:
        region = boxes_of(cfg.address(src), cfg.address(dst), cfg.service(svc))
        bad = False
        if kind == "forbid":
            bad = any(r.action == "permit" and touches(effective[i], region) for i, r in enumerate(rules))
        else:
            rem = region
            for i, r in enumerate(rules):
                if r.action == "deny" and touches(rem, boxes[i]):
                    bad = True
                    break
                rem = minus(rem, boxes[i])
            bad = bad or bool(rem)
        if bad:
            violations.append(sid)
    return sorted(violations), sorted(shadowed), sorted(redundant)


def changes(old, new):
    a = {r.seq: r.key() for r in (old.rules if old else [])}
    b = {r.seq: r.key() for r in new.rules}
    return {
        "added": sorted(s for s in b if s not in a),
        "removed": sorted(s for s in a if s not in b),
        "modified": sorted(s for s in b if s in a and a[s] != b[s]),
    }


def audit_series(series):
    policy = load_policy(os.path.join(series, "policy.txt"))
    snapdir = os.path.join(series, "snapshots")
    out, prev = [], None
    for name in sorted(os.listdir(snapdir)):
        main = os.path.join(snapdir, name, "main.conf")
        if not os.path.isfile(main):
            continue
        cfg = load(main)
        violations, shadowed, redundant = analyse(cfg, policy)
        entry = {"name": name, "violations": violations, "shadowed": shadowed, "redundant": redundant}
        entry.update(changes(prev, cfg))
        out.append(entry)
        prev = cfg
    return {"snapshots": out}
