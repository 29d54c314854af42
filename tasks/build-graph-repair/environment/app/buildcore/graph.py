"""Resolves the goal closure: explicit and pattern rules, cycles, missing sources, build order."""
import os

from . import BuildError


class Node:
    def __init__(self, name):
        self.name = name
        self.phony = False
        self.prereqs = []
        self.orderonly = []
        self.commands = []  # expanded command lines
        self.stem = ""


def _uniq(items):
    out = []
    for x in items:
        if x not in out:
            out.append(x)
    return out


def _match(pattern, path):
    pre, _, suf = pattern.partition("%")
    if len(path) > len(pre) + len(suf) and path.startswith(pre) and path.endswith(suf):
        return path[len(pre):len(path) - len(suf)]
    return None


class Graph:
    def __init__(self, bf, root):
        self.bf = bf
        self.root = root
        self.nodes = {}  # targets only
        self.sources = set()

    def _make(self, name):
        bf = self.bf
        explicit = [r for r in bf.rules if name in r.targets]
        with_cmds = [r for r in explicit if r.commands]
        node = Node(name)
        node.phony = name in bf.phony
        raw_cmds = None
        pre, order = [], []
        if with_cmds:
            raw_cmds = with_cmds[-1].commands
        elif not node.phony:
            for p in reversed(bf.patterns):
                for t in p.targets:
                    stem = _match(t, name)
                    if stem is not None:
                        break
                else:
                    continue
                node.stem = stem
                raw_cmds = p.commands
                pre = [x.replace("%", stem) for x in p.prereqs]
                order = [x.replace("%", stem) for x in p.orderonly]
                break
        if raw_cmds is None and not explicit and not node.phony:
            return None  # a source
        for r in explicit:
            pre += r.prereqs
            order += r.orderonly
        node.prereqs = _uniq(pre)
        node.orderonly = [x for x in _uniq(order) if x not in node.prereqs]
        if raw_cmds is None and not node.phony:
            raise BuildError("no commands for %s" % name)
        auto = {
            "@": name,
            "<": node.prereqs[0] if node.prereqs else "",
            "^": " ".join(node.prereqs),
            "|": " ".join(node.orderonly),
            "*": node.stem,
        }
        node.commands = [bf.expand(c, auto) for c in (raw_cmds or [])]
        return node

    def resolve(self, goals):
        todo = list(goals)
        while todo:
            name = todo.pop()
            if name in self.nodes or name in self.sources:
                continue
            node = self._make(name)
            if node is None:
                self.sources.add(name)
                continue
            self.nodes[name] = node
            todo.extend(node.prereqs + node.orderonly)
        self._check_cycles()
        missing = sorted(s for s in self.sources if not os.path.isfile(os.path.join(self.root, s)))
        if missing:
            raise BuildError("missing source: %s" % missing[0])

    def edges(self, name):
        n = self.nodes[name]
        return [p for p in n.prereqs + n.orderonly if p in self.nodes]

    def _check_cycles(self):
        explicit = {}
        for r in self.bf.rules:
            for t in r.targets:
                explicit.setdefault(t, []).extend(r.prereqs + r.orderonly)
        state = {}

        def visit(v, path):
            state[v] = 1
            for w in explicit.get(v, []):
                if state.get(w) == 1:
                    raise BuildError("cycle through %s" % w)
                if w not in state:
                    visit(w, path + [w])
            state[v] = 2

        for v in explicit:
            if v not in state:
                visit(v, [v])

    def order(self, goals):
        """Prerequisites before dependents: depth-first, in the order they are written."""
        out, seen = [], set()

        def visit(n):
            if n in seen:
                return
            seen.add(n)
            for p in self.edges(n):
                visit(p)
            out.append(n)

        for goal in goals:
            if goal in self.nodes:
                visit(goal)
        return out

    def deps_closure(self, name):
        seen, todo = set(), list(self.edges(name))
        while todo:
            p = todo.pop()
            if p not in seen:
                seen.add(p)
                todo.extend(self.edges(p))
        return seen
