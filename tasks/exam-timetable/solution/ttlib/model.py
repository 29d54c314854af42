"""The instance model every other module works on."""
from dataclasses import dataclass, field


@dataclass
class Instance:
    days: int = 0
    slots: int = 0
    maxperday: int = 2
    objective: str = "none"
    rooms: dict = field(default_factory=dict)        # name -> capacity
    exams: list = field(default_factory=list)        # codes, in declaration order
    split: dict = field(default_factory=dict)        # code -> most rooms it may use (default 1)
    enrol: dict = field(default_factory=dict)        # student -> set of codes
    after: list = field(default_factory=list)        # (later, earlier): later strictly after earlier
    same: list = field(default_factory=list)         # (a, b): same day and slot
    avoid: set = field(default_factory=set)          # (code, day)
    term: str = ""

    def size(self):
        out = dict.fromkeys(self.exams, 0)
        for codes in self.enrol.values():
            for c in codes:
                out[c] += 1
        return out

    def rooms_allowed(self, code):
        return self.split.get(code, 1)

    def slot_index(self, day, slot):
        """0-based position of (day, slot) in time: day 1 slot 1 is 0."""
        return (day - 1) * self.slots + (slot - 1)

    def slot_of(self, index):
        return index // self.slots + 1, index % self.slots + 1
