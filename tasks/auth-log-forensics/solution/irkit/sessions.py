"""sshd sessions: an Accepted line opens one; its own pid's closing lines end it."""


class Session:
    __slots__ = ("login", "end", "close", "disc")

    def __init__(self, login):
        self.login, self.end, self.close, self.disc = login, None, None, None


def build(evs):
    open_by_pid = {}
    sessions = []
    for e in evs:
        if e.rec.prog != "sshd":
            continue
        pid = e.rec.pid
        if e.kind == "login":
            s = Session(e)
            sessions.append(s)
            open_by_pid[pid] = s
        elif e.kind == "closed":
            s = open_by_pid.get(pid)
            if s is not None and s.close is None:
                s.close = e
        elif e.kind == "disconnect":
            s = open_by_pid.get(pid)
            if s is not None and s.disc is None:
                s.disc = e
    for s in sessions:
        s.end = s.close or s.disc
    sessions.sort(key=lambda s: (s.login.rec.t, s.login.rec.rank, s.login.rec.lineno))
    return sessions
