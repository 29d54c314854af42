"""Reading logit files (SPEC.md section 1)."""
import csv


class Rows:
    def __init__(self, ids, splits, labels, logits):
        self.ids = ids
        self.splits = splits
        self.labels = labels
        self.logits = logits

    @property
    def classes(self):
        return len(self.logits[0]) if self.logits else 0

    def select(self, split):
        if split == "all":
            return self
        keep = [i for i, s in enumerate(self.splits) if s == split]
        return Rows([self.ids[i] for i in keep], [self.splits[i] for i in keep],
                    [self.labels[i] for i in keep], [self.logits[i] for i in keep])


def read_logits(path):
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = [h.strip() for h in next(reader)]
        zcols = [i for i, h in enumerate(header) if h.startswith("z")]
        zcols.sort(key=lambda i: int(header[i][1:]))
        i_id, i_split, i_label = header.index("id"), header.index("split"), header.index("label")
        ids, splits, labels, logits = [], [], [], []
        for rec in reader:
            if not rec or not "".join(rec).strip():
                continue
            ids.append(rec[i_id].strip())
            splits.append(rec[i_split].strip())
            labels.append(int(rec[i_label]))
            logits.append([float(rec[i]) for i in zcols])
    return Rows(ids, splits, labels, logits)
