"""Label and id normalisation, label-map files."""
import json
import os


def norm(value):
    """Ids and labels are compared after trimming white space and lower-casing."""
    return (value or "").strip().lower()


def load_label_map(dataset_dir):
    """DATASET/label_map.json maps predicted codes to label names (both normalised)."""
    path = os.path.join(dataset_dir, "label_map.json")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    return {norm(str(k)): str(v) for k, v in raw.items()}


def apply_map(label, mapping):
    key = norm(label)
    return mapping.get(key, key)
