"""Invoice references in free text and customer-name normalisation."""
import re

REF = re.compile(r"inv(?:oice)?[#:.\-/ ]*(\d{4})\s*[-/ ]\s*(\d{1,4})(?!\d)", re.I)
LEGAL = {"ltd", "gmbh", "inc", "llc", "s.a", "sa", "ag", "bv", "plc"}


def invoice_ids(text, known):
    """Known invoice ids named in text, each once, in order of mention."""
    found = []
    for m in REF.finditer(text or ""):
        key = "INV-%s-%s" % (m.group(1), m.group(2))
        if key in known and key not in found:
            found.append(key)
    return found


def norm_name(name):
    words = name.lower().replace(",", " ").split()
    while words and words[-1] in LEGAL:
        words.pop()
    return " ".join(words)
