"""Text preparation shared by training and encoding: special tokens, normalisation, pre-tokens."""
import os
import unicodedata

FORMS = ("none", "NFC", "NFKC")


def normalize(text, form):
    if form not in FORMS:
        raise ValueError("unknown normalization %r" % form)
    if form == "none":
        return text
    return unicodedata.normalize(form, text)


def split_specials(text, specials):
    """[(is_special, piece)]: left to right, the longest special token matching at a position."""
    ordered = sorted((s for s in specials if s), key=len, reverse=True)
    out = []
    start = 0
    i = 0
    n = len(text)
    while i < n:
        hit = None
        for s in ordered:
            if text.startswith(s, i):
                hit = s
                break
        if hit is None:
            i += 1
            continue
        if i > start:
            out.append((False, text[start:i]))
        out.append((True, hit))
        i += len(hit)
        start = i
    if start < n:
        out.append((False, text[start:]))
    return out


def char_class(c):
    if c.isspace():
        return "W"
    cat = unicodedata.category(c)[0]
    if cat in ("L", "M"):
        return "L"
    if cat == "N":
        return "N"
    return "P"


def pretokenize(text):
    """Pre-tokens of one normalised segment (SPEC.md section 3)."""
    runs = []
    for c in text:
        k = char_class(c)
        if runs and runs[-1][0] == k:
            runs[-1][1].append(c)
        else:
            runs.append((k, [c]))
    out = []
    carry = ""
    for i, (k, chars) in enumerate(runs):
        s = carry + "".join(chars)
        carry = ""
        if k == "W" and i + 1 < len(runs) and s.endswith(" "):
            s, carry = s[:-1], " "
        if s:
            out.append(s)
    return out


def segments(line, specials, form):
    """[(is_special, text)] of one document: specials split on the raw text, the rest normalised."""
    return [(sp, piece if sp else normalize(piece, form)) for sp, piece in split_specials(line, specials)]


def read_docs(path):
    with open(path, encoding="utf-8", newline="") as f:
        data = f.read()
    lines = data.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def txt_files(folder):
    return sorted(n for n in os.listdir(folder) if n.endswith(".txt"))
