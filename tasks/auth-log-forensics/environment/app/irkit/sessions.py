"""sshd sessions: an Accepted line opens one, the next closing line of its pid ends it."""


class Session:
    __slots__ = ("login", "end", "close", "disc")

    def __init__(self, login):
        self.login, self.end, self.close, self.disc = login, None, None, None


def build(evs):
    by_pid = {}
    for e in evs:
        pid = e.rec.pid
        if e.kind == "login":
            if pid not in by_pid:
                by_pid[pid] = Session(e)
        elif e.kind in ("closed", "disconnect"):
            s = by_pid.get(pid)
            if s is not None and s.end is None:
                s.end = e
    return sorted(by_pid.values(), key=lambda s: s.login.rec.t)
