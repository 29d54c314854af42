"""Parser for the instance language (see /app/SPEC.md)."""
import re

from .model import Instance

NAME = re.compile(r"^[A-Za-z0-9_-]+$")
KEYWORDS = ("term", "days", "slots", "maxperday", "objective", "room", "exam", "student", "after", "before",
            "same", "avoid")


class InstanceError(ValueError):
    pass


def statements(text):
    """(line number, tokens) of every statement line."""
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        yield no, line.replace(",", " ").split()


def number(tok, no):
    if not tok.isdigit():
        raise InstanceError("line %d: expected a whole number, got %r" % (no, tok))
    return int(tok)


def parse(text):
    inst = Instance()
    for no, t in statements(text):
        key, args = t[0], t[1:]
        if key not in KEYWORDS:
            continue  # statements of newer versions of the language
        if key == "term":
            inst.term = " ".join(args).strip('"')
        elif key in ("days", "slots", "maxperday"):
            setattr(inst, key, number(args[0], no))
        elif key == "objective":
            inst.objective = args[0]
        elif key == "room":
            inst.rooms[args[0]] = number(args[1], no)
        elif key == "exam":
            inst.exams.append(args[0])
            if len(args) >= 3 and args[1] == "split":
                inst.split[args[0]] = number(args[2], no)
        elif key == "student":
            sid = args[0].rstrip(":")
            codes = [a for a in args[1:] if a != ":"]
            for c in codes:
                if c not in inst.exams:
                    raise InstanceError("line %d: exam %s is not declared" % (no, c))
            inst.enrol[sid] = set(codes)
        elif key in ("after", "before"):
            inst.after.append((args[0], args[1]))
        elif key == "same":
            inst.same.append((args[0], args[1]))
        elif key == "avoid":
            inst.avoid.add((args[0], number(args[2], no)))
    if not inst.days or not inst.slots:
        raise InstanceError("days and slots must be declared")
    return inst


def load(path):
    with open(path, encoding="utf-8") as f:
        return parse(f.read())
