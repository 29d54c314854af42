"""Account rules over etc/passwd and etc/shadow."""


def _records(snap, rel):
    for line in snap.read(rel).splitlines():
        if line.strip():
            yield line.split(":")


def account_findings(snap, out):
    for f in _records(snap, "etc/passwd"):
        if f[2].strip() == "0" and f[0] != "root":
            out.add(("uid0_nonroot", f[0]))
    for f in _records(snap, "etc/shadow"):
        if f[1].strip("!*") == "":
            out.add(("empty_password", f[0]))
