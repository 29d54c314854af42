"""Permission findings on the final file system."""

EXEC_BITS = 0o111


def octal(mode):
    return "%04o" % (mode & 0o7777)


def permission_findings(fs):
    out = []
    for path, node in fs.nodes.items():
        if path == "/":
            continue
        if node.kind in ("file", "hardlink"):
            if node.mode & 0o6000 and node.mode & EXEC_BITS:
                out.append(("SETUID", path, octal(node.mode), None))
            if node.mode & 0o002:
                out.append(("WORLD_WRITABLE", path, octal(node.mode), None))
        elif node.kind == "dir":
            if node.mode & 0o002:
                out.append(("WORLD_WRITABLE", path, octal(node.mode), None))
        # symbolic links always carry 0777 and are never reported
    return out
