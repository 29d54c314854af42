"""Parser for the instance language (see /app/SPEC.md)."""
import re

from .model import Instance

NAME = re.compile(r"^[A-Za-z0-9_-]+$")


class InstanceError(ValueError):
    pass


def logical_lines(text):
    """(line number, text) after comments are cut and backslash continuations joined."""
    out, buf, start = [], "", None
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if start is None:
            start = no
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        buf += line
        if buf.strip():
            out.append((start, buf.strip()))
        buf, start = "", None
    if buf.strip():
        out.append((start, buf.strip()))
    return out


def tokens(line):
    return line.replace(",", " ").replace(":", " : ").split()


def number(tok, no):
    if not tok.isdigit():
        raise InstanceError("line %d: expected a whole number, got %r" % (no, tok))
    return int(tok)


def name(tok, no):
    if not NAME.match(tok):
        raise InstanceError("line %d: bad name %r" % (no, tok))
    return tok


def parse(text):
    inst = Instance()
    inst.maxperday = 2
    declared, used = set(), []
    for no, line in logical_lines(text):
        if line.lower().startswith("term"):
            inst.term = line[4:].strip().strip('"')
            continue
        t = tokens(line)
        key = t[0].lower()
        args = t[1:]
        if key in ("days", "slots", "maxperday"):
            setattr(inst, key, number(args[0], no))
        elif key == "objective":
            inst.objective = args[0].lower()
        elif key == "room":
            inst.rooms[name(args[0], no)] = number(args[1], no)
        elif key == "exam":
            code = name(args[0], no)
            if code not in declared:
                declared.add(code)
                inst.exams.append(code)
            if len(args) >= 3 and args[1].lower() == "split":
                inst.split[code] = number(args[2], no)
        elif key == "student":
            sid = name(args[0], no)
            codes = [a for a in args[1:] if a != ":"]
            inst.enrol.setdefault(sid, set()).update(codes)
            used.extend((no, c) for c in codes)
        elif key in ("after", "before"):
            a, b = name(args[0], no), name(args[1], no)
            inst.after.append((a, b) if key == "after" else (b, a))
            used.extend([(no, a), (no, b)])
        elif key == "same":
            a, b = name(args[0], no), name(args[1], no)
            inst.same.append((a, b))
            used.extend([(no, a), (no, b)])
        elif key == "avoid":
            code = name(args[0], no)
            if len(args) < 3 or args[1].lower() not in ("day", "days"):
                raise InstanceError("line %d: avoid EXAM day D[,D...]" % no)
            for d in args[2:]:
                inst.avoid.add((code, number(d, no)))
            used.append((no, code))
        else:
            raise InstanceError("line %d: unknown statement %r" % (no, t[0]))
    for no, c in used:
        if c not in declared:
            raise InstanceError("line %d: exam %s is not declared" % (no, c))
    if inst.days < 1 or inst.slots < 1:
        raise InstanceError("days and slots must be declared")
    return inst


def load(path):
    with open(path, encoding="utf-8") as f:
        return parse(f.read())
