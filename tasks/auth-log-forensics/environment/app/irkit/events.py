"""Turns records into authentication events."""
import re

from .addr import normalise

ADDR = r"(?P<addr>[0-9A-Fa-f:.]+)"
ACCEPTED = re.compile(r"^Accepted (?P<method>\S+) for (?P<user>\S+) from " + ADDR + r" port (?P<port>\d+) ssh2$")
FAILED = re.compile(r"^Failed (?P<method>\S+) for (?:invalid user )?(?P<user>\S+) from " + ADDR + r" port (?P<port>\d+)(?: ssh2)?(?::.*)?$")
INVALID = re.compile(r"^Invalid user (?P<user>\S+) from " + ADDR + r"(?: port (?P<port>\d+))?$")
DISCONNECTED = re.compile(r"^Disconnected from user (?P<user>\S+) " + ADDR + r" port (?P<port>\d+)$")
CLOSED = re.compile(r"^pam_unix\(sshd:session\): session closed for user (?P<user>\S+)$")
SUDO = re.compile(r"^(?P<user>\S+) : .*?USER=(?P<runas>\S+) ; COMMAND=(?P<cmd>.*)$")
SU_TO = re.compile(r"^\(to (?P<target>\S+)\) (?P<user>\S+) on \S+$")
USERADD = re.compile(r"^new user: name=(?P<name>[^,]+),")
PASSWD = re.compile(r"^pam_unix\(passwd:chauthtok\): password changed for (?P<name>\S+)$")


class Event:
    __slots__ = ("kind", "rec", "user", "src", "port", "method", "count", "runas", "cmd")

    def __init__(self, kind, rec, user=None, src=None, port=None, method=None, count=1, runas=None, cmd=None):
        self.kind, self.rec, self.user, self.src, self.port, self.method = kind, rec, user, src, port, method
        self.count, self.runas, self.cmd = count, runas, cmd

    @property
    def t(self):
        return self.rec.t


def classify(rec):
    msg = rec.msg
    prog = rec.prog
    if prog == "sshd":
        m = ACCEPTED.match(msg)
        if m:
            return Event("login", rec, m["user"], normalise(m["addr"]), m["port"], m["method"])
        m = FAILED.match(msg) or INVALID.match(msg)
        if m:
            return Event("fail", rec, m["user"], normalise(m["addr"]), m.groupdict().get("port"), m.groupdict().get("method"))
        m = DISCONNECTED.match(msg)
        if m:
            return Event("disconnect", rec, m["user"], normalise(m["addr"]), m["port"])
        m = CLOSED.match(msg)
        if m:
            return Event("closed", rec, m["user"])
        return None
    if prog == "sudo":
        m = SUDO.match(msg)
        if m:
            return Event("sudo", rec, m["user"], runas=m["runas"], cmd=m["cmd"])
        return None
    if prog == "su":
        m = SU_TO.match(msg)
        if m:
            return Event("su", rec, m["user"], runas=m["target"])
        return None
    if prog == "useradd":
        m = USERADD.match(msg)
        if m:
            return Event("useradd", rec, m["name"].strip())
        return None
    if prog == "passwd":
        m = PASSWD.match(msg)
        if m:
            return Event("passwd", rec, m["name"])
    return None


def events(records):
    out = []
    for r in records:
        e = classify(r)
        if e is not None:
            out.append(e)
    return out


def is_root(e):
    return e.kind in ("sudo", "su") and e.runas == "root"
