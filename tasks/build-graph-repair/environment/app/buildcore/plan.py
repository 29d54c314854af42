"""Dirty decisions with reason codes (SPEC section 6) and the plan."""
import os

from . import BuildError
from .buildfile import parse
from .graph import Graph
from .state import command_hash, file_hash, load


def hashed_inputs(graph, node):
    return [p for p in node.prereqs if not (p in graph.nodes and graph.nodes[p].phony)]


class Plan:
    def __init__(self, buildfile, statefile, goals):
        self.root = os.path.dirname(os.path.abspath(buildfile))
        self.bf = parse(buildfile)
        if not goals:
            if self.bf.default is None:
                raise BuildError("no goal")
            goals = [self.bf.default]
        self.goals = goals
        self.graph = Graph(self.bf, self.root)
        self.graph.resolve(goals)
        self.state = load(statefile)
        self.order = self.graph.order(goals)
        self.reasons = {}
        for name in self.order:
            self.reasons[name] = self._reason(name)
        self.dirty = [n for n in self.order if self.reasons[n] != "up_to_date"]

    def path(self, name):
        return os.path.join(self.root, name)

    def _reason(self, name):
        node = self.graph.nodes[name]
        if node.phony:
            return "phony" if node.commands else "up_to_date"
        entry = self.state.get(name)
        if entry is None:
            return "new"
        if not entry.get("ok", False):
            return "failed_last"
        current = file_hash(self.path(name))
        if current is None:
            return "missing_output"
        if command_hash(node.commands) != entry.get("command"):
            return "command_changed"
        inputs = hashed_inputs(self.graph, node)
        recorded = entry.get("inputs") or {}
        if set(inputs) != set(recorded):
            return "prereqs_changed"
        for p in inputs:
            if not os.path.exists(self.path(p)) or os.path.getmtime(self.path(p)) > entry.get("built_at", 0):
                return "input_changed"
        for p in inputs + node.orderonly:
            if p in self.graph.nodes and self.reasons.get(p, "up_to_date") != "up_to_date":
                return "dep_rebuilt"
        return "up_to_date"
