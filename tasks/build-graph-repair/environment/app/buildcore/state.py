"""The state file (SPEC section 5) and content hashes."""
import hashlib
import json
import os


def file_hash(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def command_hash(commands):
    return hashlib.sha256("\n".join(commands).encode("utf-8")).hexdigest()


def load(path):
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return dict(doc.get("targets", {}))


def save(path, targets):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"version": 1, "targets": targets}, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)
