"""Installed packages from the image's dpkg status database."""

STATUS = "/var/lib/dpkg/status"


def paragraphs(text):
    para, key = {}, None
    for line in text.splitlines():
        if not line.strip():
            if para:
                yield para
            para, key = {}, None
            continue
        if line[0] in " \t":
            if key:
                para[key] += "\n" + line.strip()
            continue
        key, _, value = line.partition(":")
        key = key.strip()
        para[key] = value.strip()
    if para:
        yield para


def installed_packages(fs):
    data = fs.read_file(STATUS)
    if data is None:
        return {}
    pkgs = {}
    for p in paragraphs(data.decode("utf-8", "replace")):
        status = p.get("Status", "").split()
        if len(status) == 3 and status[2] == "installed" and p.get("Package") and p.get("Version"):
            pkgs[p["Package"]] = p["Version"]
    return pkgs
