"""Loads a study table (CSV with a header) into a Table."""
import csv

ID_COL = "record_id"
GROUP_COL = "subject"
LABEL_COL = "label"
MISSING = ("", "NA")


class Table:
    def __init__(self, ids, groups, labels, feature_names, X):
        self.ids = ids                      # record ids, file order
        self.groups = groups                # subject of each row
        self.labels = labels                # class label of each row (str)
        self.feature_names = feature_names  # model input columns
        self.X = X                          # rows of floats, None where missing

    def __len__(self):
        return len(self.ids)

    def classes(self):
        return sorted(set(self.labels))


def _value(cell):
    cell = cell.strip()
    if cell in MISSING:
        return None
    return float(cell)


def _is_numeric_column(rows, name):
    for r in rows:
        cell = r[name].strip()
        if cell in MISSING:
            continue
        try:
            float(cell)
        except ValueError:
            return False
    return True


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys()) if rows else []
    rows = [r for r in rows if r[LABEL_COL].strip() not in MISSING]
    reserved = {ID_COL, GROUP_COL, LABEL_COL}
    features = [c for c in header if c not in reserved and _is_numeric_column(rows, c)]
    ids = [r[ID_COL].strip() for r in rows]
    groups = [r[GROUP_COL].strip() for r in rows]
    labels = [r[LABEL_COL].strip() for r in rows]
    X = [[_value(r[c]) for c in features] for r in rows]
    return Table(ids, groups, labels, features, X)
