"""Resolves the goal closure: explicit and pattern rules, cycles, missing sources, build order."""
import heapq
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
            for p in bf.patterns:
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
        index, low, stack, on, comps = {}, {}, [], set(), []
        counter = [0]

        def strong(v):
            # iterative Tarjan
            work = [(v, iter(self.edges(v)))]
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            while work:
                node, it = work[-1]
                advanced = False
                for w in it:
                    if w not in index:
                        index[w] = low[w] = counter[0]
                        counter[0] += 1
                        stack.append(w)
                        on.add(w)
                        work.append((w, iter(self.edges(w))))
                        advanced = True
                        break
                    if w in on:
                        low[node] = min(low[node], index[w])
                if advanced:
                    continue
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    comps.append(comp)

        for v in sorted(self.nodes):
            if v not in index:
                strong(v)
        cyclic = [c for c in comps if len(c) > 1 or c[0] in self.edges(c[0])]
        if cyclic:
            raise BuildError("cycle through %s" % min(min(c) for c in cyclic))

    def order(self):
        """Kahn's algorithm; among ready targets the byte-wise smallest name first."""
        indeg = {n: 0 for n in self.nodes}
        users = {n: [] for n in self.nodes}
        for n in self.nodes:
            for p in set(self.edges(n)):
                indeg[n] += 1
                users[p].append(n)
        heap = [n for n, d in indeg.items() if d == 0]
        heapq.heapify(heap)
        out = []
        while heap:
            n = heapq.heappop(heap)
            out.append(n)
            for u in users[n]:
                indeg[u] -= 1
                if indeg[u] == 0:
                    heapq.heappush(heap, u)
        return out

    def deps_closure(self, name):
        seen, todo = set(), list(self.edges(name))
        while todo:
            p = todo.pop()
            if p not in seen:
                seen.add(p)
                todo.extend(self.edges(p))
        return seen
