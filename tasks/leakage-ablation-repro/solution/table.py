"""Loads a study table (CSV with a header) into a Table, as PROTOCOL.md section 1 says."""
import csv

ID_COL = "record_id"
GROUP_COL = "subject"
LABEL_COL = "label"
FEATURE_PREFIX = "f_"
MISSING = ("", "NA", "?")


class Table:
    def __init__(self, ids, groups, labels, feature_names, X, raw):
        self.ids = ids                      # record ids, file order (labelled rows only)
        self.groups = groups                # subject of each row
        self.labels = labels                # class label of each row (str)
        self.feature_names = feature_names  # model input columns: the f_ columns, header order
        self.X = X                          # rows of floats, None where missing
        self.raw = raw                      # every column's cells (labelled rows only)

    def __len__(self):
        return len(self.ids)

    def classes(self):
        return sorted(set(self.labels))

    def numeric_column(self, name):
        """A column's values as floats (None where missing); raises for an unknown column."""
        return [_value(c) for c in self.raw[name]]


def _value(cell):
    cell = cell.strip()
    if cell in MISSING:
        return None
    return float(cell)


def load(path):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = [h.strip() for h in next(reader)]
        body = [r for r in reader if r and any(c.strip() for c in r)]
    at = {h: i for i, h in enumerate(header)}
    rows = [r for r in body if r[at[LABEL_COL]].strip() not in MISSING]
    features = [h for h in header if h.startswith(FEATURE_PREFIX)]
    ids = [r[at[ID_COL]].strip() for r in rows]
    groups = [r[at[GROUP_COL]].strip() for r in rows]
    labels = [r[at[LABEL_COL]].strip() for r in rows]
    X = [[_value(r[at[c]]) for c in features] for r in rows]
    raw = {h: [r[at[h]] for r in rows] for h in header}
    return Table(ids, groups, labels, features, X, raw)
