"""Which files of a bundle are read: manifests (files, include, exclude) or the whole tree,
wrappers undone, re-shipped copies (same content) read once."""
import fnmatch
import hashlib
import json
import os
import posixpath

from .wrappers import WrapperError, log_kind, unwrap

MANIFEST = "manifest.json"


class Source:
    def __init__(self, rel, kind, text):
        self.rel = rel
        self.kind = kind
        self.text = text

    def __repr__(self):
        return "Source(%r, %r)" % (self.rel, self.kind)


def _rel(root, path):
    return posixpath.normpath(os.path.relpath(path, root).replace(os.sep, "/"))


def _entry_path(entry):
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and isinstance(entry.get("path"), str):
        return entry["path"]
    return None


def _read_manifests(root):
    """All file paths (relative to root) the manifests list, and every exclude pattern."""
    listed, excludes, seen = [], [], set()
    todo = [os.path.join(root, MANIFEST)]
    while todo:
        path = os.path.normpath(todo.pop(0))
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        with open(path, "rb") as f:
            name, data = unwrap(os.path.basename(path), f.read())
        doc = json.loads(data.decode("utf-8"))
        if not isinstance(doc, dict):
            continue
        here = os.path.dirname(path)
        for entry in doc.get("files") or []:
            p = _entry_path(entry)
            if p is not None:
                listed.append(_rel(root, os.path.join(here, p)))
        for inc in doc.get("include") or []:
            if isinstance(inc, str):
                todo.append(os.path.join(here, inc))
        for pat in doc.get("exclude") or []:
            if isinstance(pat, str):
                excludes.append(pat)
    return listed, excludes


def _walk(root):
    out = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in names:
            out.append(_rel(root, os.path.join(d, n)))
    return out


def discover(root):
    """(sources in read order, number of duplicate files skipped)."""
    if os.path.isfile(os.path.join(root, MANIFEST)):
        listed, excludes = _read_manifests(root)
    else:
        listed, excludes = _walk(root), []
    chosen = sorted(set(p for p in listed if not any(fnmatch.fnmatchcase(posixpath.basename(p), pat) for pat in excludes)))
    sources, hashes, dups = [], set(), 0
    for rel in chosen:
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            raw = f.read()
        h = hashlib.sha256(raw).hexdigest()
        try:
            name, data = unwrap(posixpath.basename(rel), raw)
        except WrapperError:
            continue
        kind = log_kind(name)
        if kind is None:
            continue
        if h in hashes:
            dups += 1
            continue
        hashes.add(h)
        sources.append(Source(rel, kind, data.decode("utf-8", errors="replace")))
    return sources, dups
