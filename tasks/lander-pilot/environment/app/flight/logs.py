"""The flight recorder's logs (FLIGHT.md §6).

A log is a JSON-lines file: one `header` record (the episode's init message plus `flight`), one
`step` record per answered step (the observation sent, the command as applied, the true state after
the step), and -- when the recorder closed the file itself -- an `end` record. A recorder that was
killed leaves no `end` record; blank lines may appear anywhere and mean nothing.
"""
import json
import os


class FlightLog:
    def __init__(self, name, header, steps, end):
        self.name = name
        self.header = header
        self.steps = steps
        self.end = end

    def touchdown(self):
        """Index in `steps` of the first record at or below the ground, or None."""
        for i, rec in enumerate(self.steps):
            if rec["y"] <= 0:
                return i
        return None


def read_log(path):
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    if not records or records[0].get("type") != "header":
        raise ValueError("%s: no header record" % path)
    header = records[0]
    body = records[1:]
    end = body.pop() if body else None  # the recorder's end record
    steps = [r for r in body if r.get("type") == "step"]
    name = os.path.basename(path)
    if name.endswith(".jsonl"):
        name = name[: -len(".jsonl")]
    return FlightLog(name, header, steps, end)


def log_paths(folder):
    """The *.jsonl files of a folder, by name; other files are not logs."""
    return [os.path.join(folder, n) for n in sorted(os.listdir(folder))
            if n.endswith(".jsonl") and os.path.isfile(os.path.join(folder, n))]
