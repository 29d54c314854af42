"""Reads a Buildfile: variables, explicit rules, pattern rules and .PHONY (SPEC sections 2-3)."""
import re

from . import BuildError

NAME = r"[A-Za-z_][A-Za-z0-9_]*"
ASSIGN = re.compile(r"^(%s)\s*(:=|\+=|=)\s*(.*)$" % NAME)
REF = re.compile(r"\$(\$|\((%s)\)|\{(%s)\}|([@<^|*]))" % (NAME, NAME))


class Rule:
    def __init__(self, targets, prereqs, orderonly, line):
        self.targets = targets
        self.prereqs = prereqs
        self.orderonly = orderonly
        self.commands = []
        self.line = line


class Buildfile:
    def __init__(self):
        self.vars = {}  # name -> (flavor, value); flavor "recursive" keeps raw text
        self.rules = []  # explicit rules, file order
        self.patterns = []  # pattern rules, file order
        self.phony = set()
        self.default = None

    def expand(self, text, auto=None, seen=()):
        def sub(m):
            if m.group(1) == "$":
                return "$"
            if m.group(4):
                return (auto or {}).get(m.group(4), "")
            name = m.group(2) or m.group(3)
            if name not in self.vars:
                return ""
            flavor, value = self.vars[name]
            if flavor == "simple":
                return value
            if name in seen:
                raise BuildError("recursive variable %s" % name)
            return self.expand(value, auto, seen + (name,))

        return REF.sub(sub, text)


def parse(path):
    bf = Buildfile()
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    current = None
    for no, raw in enumerate(lines, 1):
        if raw.startswith("\t"):
            if current is None:
                raise BuildError("line %d: command outside a rule" % no)
            current.commands.append(raw[1:])
            continue
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        current = None
        m = ASSIGN.match(line)
        if m:
            name, op, value = m.group(1), m.group(2), m.group(3).strip()
            if op == "=":
                bf.vars[name] = ("recursive", value)
            elif op == ":=":
                bf.vars[name] = ("simple", bf.expand(value))
            else:
                flavor, old = bf.vars.get(name, ("recursive", ""))
                add = bf.expand(value) if flavor == "simple" else value
                bf.vars[name] = (flavor, (old + " " + add) if old else add)
            continue
        if ":" not in line:
            raise BuildError("line %d: not a rule or assignment" % no)
        head, _, tail = line.partition(":")
        targets = bf.expand(head).split()
        tail = bf.expand(tail)
        normal, bar, order = tail.partition("|")
        if targets == [".PHONY"]:
            bf.phony.update(normal.split())
            continue
        rule = Rule(targets, normal.split(), order.split() if bar else [], no)
        if any("%" in t for t in targets):
            bf.patterns.append(rule)
        else:
            bf.rules.append(rule)
            if bf.default is None and targets:
                bf.default = targets[0]
        current = rule
    return bf
