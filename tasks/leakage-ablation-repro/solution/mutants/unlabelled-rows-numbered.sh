#!/usr/bin/env bash
# Off-by-one: numbers the subjects by first appearance over all rows, unlabelled ones included, instead of over the kept rows.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
patches = {
    "/app/abl/table.py": [
        ('    return Table(ids, groups, labels, features, X, raw)\n',
         '    t = Table(ids, groups, labels, features, X, raw)\n'
         '    t.all_groups = [r[at[GROUP_COL]].strip() for r in body]\n'
         '    return t\n'),
    ],
    "/app/abl/pipeline.py": [
        ('    fold_of = folds.group_kfold(table.groups, k)\n',
         '    seen = {}\n'
         '    for g in table.all_groups:\n'
         '        seen.setdefault(g, len(seen))\n'
         '    fold_of = [seen[g] % k for g in table.groups]\n'),
    ],
    "/app/audit.py": [
        ('        fold_of = folds.group_kfold(self.tab.groups, self.k)\n',
         '        seen = {}\n'
         '        for g in self.tab.all_groups:\n'
         '            seen.setdefault(g, len(seen))\n'
         '        fold_of = [seen[g] % self.k for g in self.tab.groups]\n'),
    ],
}
for p, pairs in patches.items():
    s = open(p).read()
    for old, new in pairs:
        # A patch that no longer applies would leave the reference program: fail loudly instead.
        assert s.count(old) == 1, "mutant patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)
PY
