"""The input channel of a scaled program task (RES, docs/scale.md).

A program task's verifier generates hidden inputs and runs the candidate program on them. In a
scaled child, the verifier kit (lh.py) hands each input to the program through this channel: a
copy of the input, transformed step by step as tests/res/channel.json declares. `present` does
that for the verifier; `restore` undoes it (the child's reference solution runs it before the
parent's program). Standard library only, deterministic: the same input, steps and seeds give the
same bytes (gzip mtime 0, sorted tar entries with fixed dates, names from a seeded generator).

A step is {"name": ..., "seed": int, "params": {...}}. An input is a folder (every file in it is
transformed), a single file (only the steps that keep one file apply to it), or a stream: the
lines an interactive program reads on its standard input, each transformed by the `line-*` steps
on its way (`stream` runs the program behind that filter for the verifier; the wrapper of the
reference solution undoes it line by line).
"""
import binascii
import io
import os

# json, gzip, hashlib, shutil and tarfile are imported where used, and base64's functions are
# binascii's (base64 imports re): a reference solution's wrapper imports this module on every
# call of the program, and most calls need few of them.

CHANNEL = os.environ.get("LONGHAUL_RES_CHANNEL", "/tests/res/channel.json")
FIXED_MTIME = 1577836800  # 2020-01-01T00:00:00Z
ONE_FILE = ("base64", "gzip", "layered-wrap", "text-reencode", "line-base64", "line-hex", "line-reverse",
            "line-rotate")


def load(path=CHANNEL):
    """The channel declaration, or None when this task is not a scaled child."""
    import json
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def _name(seed, salt, n=8):
    import hashlib
    return hashlib.sha256(("%d:%s" % (seed, salt)).encode()).hexdigest()[:n]


def _files(root):
    out = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(names):
            out.append(os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/"))
    return out


def _read(p):
    with open(p, "rb") as f:
        return f.read()


def _write(p, data):
    os.makedirs(os.path.dirname(p) or ".", exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)


def _gz(data):
    """A gzip member of `data` (mtime 0, no name), at level 1 unless deflate's match search can
    gain nothing: a gzip member already (a gzip layer over another) is stored, and a large input
    whose first 4 KB Huffman coding alone shrinks as well as level 1 (base64 or hex of compressed
    bytes) is coded that way; one that neither shrinks (other compressed data) is stored. Those
    took most of a deep channel's present time, for output no smaller (bench/channel-kit.ts).
    Any of them is the same gzip to whoever reads it, and the choice depends on the bytes alone."""
    import zlib
    level, strategy = 1, zlib.Z_DEFAULT_STRATEGY
    if data[:3] == b"\x1f\x8b\x08":
        level = 0
    elif len(data) >= _PROBE_MIN:
        # Only where 4 KB is a small part: on smaller inputs the probe costs what it saves.
        sample = data[:_PROBE]
        fast = _deflated_size(sample, 1, zlib.Z_DEFAULT_STRATEGY)
        huff = _deflated_size(sample, 1, zlib.Z_HUFFMAN_ONLY)
        if min(fast, huff) >= 0.97 * len(sample):
            level = 0
        elif huff <= fast:
            strategy = zlib.Z_HUFFMAN_ONLY
    c = zlib.compressobj(level, zlib.DEFLATED, 31, 8, strategy)
    return c.compress(data) + c.flush()


_PROBE, _PROBE_MIN = 4096, 32768


def _deflated_size(data, level, strategy):
    import zlib
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 8, strategy)
    return len(c.compress(data)) + len(c.flush())


def _gunzip(data):
    import gzip
    return gzip.decompress(data)


def _b64(data):
    """base64.encodebytes: lines of 76 characters (57 bytes) each ending in a newline. Encoded
    whole and then cut, which gives the same lines (57 bytes are 76 characters exactly) with the
    loop over lines in C."""
    if not data:
        return b""
    enc = binascii.b2a_base64(data, newline=False)
    n = len(enc)
    return b"\n".join(map(enc.__getitem__, map(slice, range(0, n, 76), range(76, n + 76, 76)))) + b"\n"


def _unb64(data):
    """base64.decodebytes (which is this)."""
    return binascii.a2b_base64(data)


LAYERS = {
    "gzip": (_gz, _gunzip),
    "base64": (_b64, _unb64),
    "hex": (lambda d: binascii.hexlify(d) + b"\n", lambda d: binascii.unhexlify(d.strip())),
}


def _layers(step):
    return step["params"].get("layers", ["gzip", "base64"])


# Each step: (apply to a tree in place, undo in place); a tree is a folder on disk (_Disk) or the
# same folder held in memory (_Mem). Per-file steps rename `f` to `f + suffix`.
def _per_file(encode, decode, suffix, accepts=lambda data: True):
    def fwd(t, step):
        for rel in t.files():
            data = t.read(rel)
            if not accepts(data):
                continue
            t.write(rel + suffix, encode(data, step))
            t.remove(rel)

    def back(t, step):
        for rel in t.files():
            if rel.endswith(suffix):
                t.write(rel[: -len(suffix)], decode(t.read(rel), step))
                t.remove(rel)

    return fwd, back


# Line steps: each line (without its newline) is encoded on its own; an encoded line never holds
# a newline, so a stream stays one line per line and a file keeps its line structure.
def _rotate(b, k):
    """b rotated left by k bytes, modulo its length (an empty line stays empty)."""
    k = k % len(b) if b else 0
    return b[k:] + b[:k]


# Each entry: (encode, decode), called with the line's bytes and the step.
LINE = {
    # base64.b64encode and b64decode (not validating) on bytes.
    "line-base64": (lambda b, s: binascii.b2a_base64(b, newline=False), lambda b, s: binascii.a2b_base64(b)),
    "line-hex": (lambda b, s: binascii.hexlify(b), lambda b, s: binascii.unhexlify(b)),
    "line-reverse": (lambda b, s: b[::-1], lambda b, s: b[::-1]),
    "line-rotate": (lambda b, s: _rotate(b, s["params"]["shift"]), lambda b, s: _rotate(b, -s["params"]["shift"])),
}


def encode_line(line, steps):
    for step in steps:
        line = LINE[step["name"]][0](line, step)
    return line


def decode_line(line, steps):
    for step in reversed(steps):
        line = LINE[step["name"]][1](line, step)
    return line


def _per_line(name):
    def conv(f):
        def go(t, step):
            for rel in t.files():
                t.write(rel, b"\n".join(f(part, step) for part in t.read(rel).split(b"\n")))
        return go

    return conv(LINE[name][0]), conv(LINE[name][1])


def pump(argv, convert):
    """Runs argv with this process's stdin lines passed through `convert`; its stdout is ours.

    The verifier's filter in front of an interactive program runs once per call, so it is started
    with posix_spawn, not subprocess (whose import is a few ms per call): with SIGPIPE and SIGXFSZ
    back at their defaults in the program (Python ignores them), as subprocess would have it."""
    import sys
    try:
        import _signal
        defaults = (_signal.SIGPIPE, _signal.SIGXFSZ)
    except (ImportError, AttributeError):
        defaults = ()
    r, w = os.pipe()
    try:
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, r, 0)],
                              setsigdef=defaults)
    finally:
        os.close(r)
    # Only the program writes to our reader. Were our copy of stdout kept open, a program that
    # exits early would leave the reader waiting for an answer instead of seeing the stream end.
    sys.stdout.flush()
    os.close(1)
    try:
        for line in iter(sys.stdin.buffer.readline, b""):
            end = line.endswith(b"\n")
            # Written whole and at once: interactive programs answer line by line.
            view = memoryview(convert(line[:-1] if end else line) + (b"\n" if end else b""))
            while view:
                view = view[os.write(w, view):]
    except OSError:  # the program is gone (EPIPE)
        pass
    finally:
        os.close(w)
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    return 128 - code if code < 0 else code


def _read_json(path):
    """json.load(open(path)) without importing json, which loads re (a few ms for a process that
    runs once per call): the C scanner json itself decodes with, at json's defaults, and json
    where that scanner is missing."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    try:
        from _json import make_scanner
    except ImportError:
        import json
        return json.loads(text)

    def constant(name):
        raise ValueError("%s: %s is not JSON" % (path, name))

    class Context:
        strict = True
        object_hook = None
        object_pairs_hook = None
        parse_float = float
        parse_int = int
        parse_constant = staticmethod(constant)
        memo = {}

    space = " \t\n\r"
    start = len(text) - len(text.lstrip(space))
    try:
        value, end = make_scanner(Context)(text, start)
    except StopIteration as e:
        raise ValueError("%s: not JSON at character %d" % (path, e.value)) from None
    if text[end:].strip(space):
        raise ValueError("%s: extra data at character %d" % (path, end))
    return value


def decode_stdin(steps):
    """Standard input (fd 0) becomes a pipe that a thread of this process fills with the lines
    read from the real one, each decoded (the reference wrapper of a stream channel, which then
    runs the original program in this process: not a second interpreter per call, as a pump
    would need). Nothing changes at the descriptor level for the program: it reads fd 0, and
    sys.stdin (not read yet) reads it too. The thread and the write end are this process's
    only (not inherited, gone at exec); the program sees the stream end when the real one ends."""
    import threading
    real = os.dup(0)
    r, w = os.pipe()
    os.dup2(r, 0)
    os.close(r)

    def feed():
        with io.open(real, "rb", buffering=io.DEFAULT_BUFFER_SIZE) as inp, io.open(w, "wb", buffering=0) as out:
            try:
                for line in iter(inp.readline, b""):
                    end = line.endswith(b"\n")
                    data = decode_line(line[:-1] if end else line, steps) + (b"\n" if end else b"")
                    # Unbuffered, and the whole line: interactive programs answer line by line.
                    view = memoryview(data)
                    while view:
                        view = view[out.write(view):]
            except (BrokenPipeError, ValueError, OSError):
                pass

    threading.Thread(target=feed, name="res-channel-stdin", daemon=True).start()


def _wrap(data, step):
    for layer in _layers(step):
        data = LAYERS[layer][0](data)
    return data


def _unwrap(data, step):
    for layer in reversed(_layers(step)):
        data = LAYERS[layer][1](data)
    return data


def _split_fwd(t, step):
    size = int(step["params"].get("part_bytes", 4096))
    for rel in t.files():
        data = t.read(rel)
        t.remove(rel)
        for i in range(max(1, -(-len(data) // size))):
            t.write("%s.part%03d" % (rel, i), data[i * size:(i + 1) * size])


def _split_back(t, step):
    parts = {}
    for rel in t.files():
        base, _, n = rel.rpartition(".part")
        if base and len(n) == 3 and n.isdigit():
            parts.setdefault(base, []).append(rel)
    for base, rels in parts.items():
        data = b"".join(t.read(r) for r in sorted(rels))
        for r in rels:
            t.remove(r)
        t.write(base, data)


def _manifest_fwd(t, step):
    """Files move to opaque paths under store/; MANIFEST.json maps each original path to its place."""
    entries = {}
    for rel in t.files():
        opaque = "store/%s/%s.blob" % (_name(step["seed"], "d" + rel, 2), _name(step["seed"], rel))
        t.write(opaque, t.read(rel))
        t.remove(rel)
        entries[rel] = opaque
    t.prune()
    import json
    t.write("MANIFEST.json", json.dumps({"files": entries}, sort_keys=True, indent=1).encode())


def _manifest_back(t, step):
    import json
    m = json.loads(t.read("MANIFEST.json"))
    t.remove("MANIFEST.json")
    for rel, opaque in sorted(m["files"].items()):
        data = t.read(opaque)
        t.remove(opaque)
        t.write(rel, data)
    t.prune()


def _archive_fwd(t, step):
    import tarfile
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for rel in t.files():
            data = t.read(rel)
            info = tarfile.TarInfo(rel)
            info.size, info.mtime, info.mode = len(data), FIXED_MTIME, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    for rel in t.files():
        t.remove(rel)
    t.prune()
    t.write("bundle.tar", buf.getvalue())


def _archive_back(t, step):
    # Read and removed first: the archive may hold an earlier step's bundle.tar.
    import tarfile
    data = t.read("bundle.tar")
    t.remove("bundle.tar")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for m in tar.getmembers():
            if m.isfile() and not m.name.startswith("/") and ".." not in m.name.split("/"):
                t.write(m.name, tar.extractfile(m).read())


def _is_utf8(data):
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _prune(root):
    for d, _dirs, _names in os.walk(root, topdown=False):
        if d != root and not os.listdir(d):
            os.rmdir(d)


class _Disk:
    """A folder on disk as the steps see it: the reference behaviour, and the way an input too
    large for memory is transformed."""

    def __init__(self, root):
        self.root = root

    def files(self):
        return _files(self.root)

    def read(self, rel):
        return _read(os.path.join(self.root, rel))

    def write(self, rel, data):
        _write(os.path.join(self.root, rel), data)

    def remove(self, rel):
        os.remove(os.path.join(self.root, rel))

    def prune(self):
        _prune(self.root)


def _walk_order(rel):
    """Sort key giving os.walk's order with sorted names: a folder's files, then its folders."""
    parts = rel.split("/")
    return [(1, p) for p in parts[:-1]] + [(0, parts[-1])]


def _oserror(cls, code, rel):
    import errno
    return cls(getattr(errno, code), os.strerror(getattr(errno, code)), rel)


class _Mem:
    """The same folder held in memory. Each step rewrites every file, and at depth a channel has
    ten or twenty steps: on disk that was an open, a write and a remove per file per step, most of
    a call's cost. Here the input is read once and the result written once, as the disk steps
    would have left it: same names and bytes, a file copied from the input keeps its mode (and,
    if no step rewrote it, its times), folders copied from a folder input keep theirs. The same
    errors, too, where a step would write through a file or over a folder."""

    def __init__(self, keep_stat, root_src):
        self.keep_stat = keep_stat
        self.root_src = root_src
        self.f = {}  # rel -> [bytes or None (not read yet), source path or None, rewritten]
        self.d = {}  # rel -> source path of a folder copied from the input, or None
        self.dirty = set()  # folders whose entries changed ("" is the root)

    @classmethod
    def load(cls, src, keep_stat, limit):
        """src as _into_folder (keep_stat) or _contents_into_folder would copy it (symlinks
        followed, empty folders kept), or None when it holds more than `limit` bytes."""
        t = cls(keep_stat, src)
        total = 0
        if not os.path.isdir(src):
            total = os.stat(src).st_size
            t.f[os.path.basename(src)] = [None, src, False]
        else:
            for d, dirs, names in os.walk(src, followlinks=True):
                dirs.sort()
                rel = os.path.relpath(d, src).replace(os.sep, "/")
                if rel != ".":
                    t.d[rel] = d
                for name in names:
                    p = os.path.join(d, name)
                    total += os.stat(p).st_size
                    t.f[name if rel == "." else rel + "/" + name] = [None, p, False]
                if total > limit:
                    return None
        return None if total > limit else t

    @staticmethod
    def _norm(rel):
        n = os.path.normpath(rel)
        if n.startswith("/") or n == ".." or n.startswith("../"):
            raise ValueError("the path %s is outside the input" % rel)
        return "" if n == "." else n

    def _file_above(self, rel):
        """The first of rel's folders (from the top) that is a file, or None."""
        parts = rel.split("/")
        for i in range(1, len(parts)):
            a = "/".join(parts[:i])
            if a in self.f:
                return a
        return None

    def _touch(self, rel):
        self.dirty.add(rel.rpartition("/")[0])

    def files(self):
        return sorted(self.f, key=_walk_order)

    def read(self, rel):
        rel = self._norm(rel)
        e = self.f.get(rel)
        if e is None:
            if self._file_above(rel) is not None:
                raise _oserror(NotADirectoryError, "ENOTDIR", rel)
            if rel == "" or rel in self.d:
                raise _oserror(IsADirectoryError, "EISDIR", rel)
            raise _oserror(FileNotFoundError, "ENOENT", rel)
        if e[0] is None:
            e[0] = _read(e[1])
        return e[0]

    def write(self, rel, data):
        rel = self._norm(rel)
        folder = rel.rpartition("/")[0]
        # os.makedirs(folder, exist_ok=True): a file in the way is an error.
        above = self._file_above(rel)
        if above is not None:
            raise _oserror(FileExistsError if above == folder else NotADirectoryError,
                           "EEXIST" if above == folder else "ENOTDIR", rel)
        if rel == "" or rel in self.d:
            raise _oserror(IsADirectoryError, "EISDIR", rel)
        parts = folder.split("/") if folder else []
        for i in range(1, len(parts) + 1):
            a = "/".join(parts[:i])
            if a not in self.d:
                self.d[a] = None
                self._touch(a)
        e = self.f.get(rel)
        if e is None:
            self.f[rel] = [data, None, False]
            self._touch(rel)
        else:
            # Written over in place: the file (and its mode) stays, its bytes change.
            e[0] = data
            e[2] = e[1] is not None

    def remove(self, rel):
        rel = self._norm(rel)
        if rel not in self.f:
            if self._file_above(rel) is not None:
                raise _oserror(NotADirectoryError, "ENOTDIR", rel)
            if rel == "" or rel in self.d:
                raise _oserror(IsADirectoryError, "EISDIR", rel)
            raise _oserror(FileNotFoundError, "ENOENT", rel)
        del self.f[rel]
        self._touch(rel)

    def prune(self):
        # _prune: bottom up, so a folder that held only empty folders goes too. What stays is
        # every folder with a file somewhere below it.
        kept = set()
        for rel in self.f:
            parts = rel.split("/")
            for i in range(1, len(parts)):
                kept.add("/".join(parts[:i]))
        for rel in [r for r in self.d if r not in kept]:
            del self.d[rel]
            self._touch(rel)

    def materialize(self, dst):
        """Writes the tree at dst (which must not exist yet)."""
        os.makedirs(dst)
        for rel in sorted(self.d):  # a folder sorts before everything inside it
            os.mkdir(os.path.join(dst, rel))
        if self.keep_stat:
            import shutil
        for rel, (data, src, rewritten) in self.f.items():
            p = os.path.join(dst, rel)
            if self.keep_stat and src is not None:
                shutil.copy2(src, p)
                if not rewritten:
                    continue
            elif data is None:
                data = _read(src)
            with open(p, "wb") as fh:
                fh.write(data)
        if self.keep_stat:
            # As copytree does, after the contents (a folder may be read-only); the folders a
            # step changed get the time of the change, as on disk.
            for rel in sorted(self.d, reverse=True) + [""]:
                src = self.root_src if rel == "" else self.d[rel]
                if src is None:
                    continue
                p = os.path.join(dst, rel) if rel else dst
                shutil.copystat(src, p)
                if rel in self.dirty:
                    os.utime(p)


STEPS = {
    "base64": _per_file(lambda d, s: _b64(d), lambda d, s: _unb64(d), ".b64"),
    "gzip": _per_file(lambda d, s: _gz(d), lambda d, s: _gunzip(d), ".gz"),
    "layered-wrap": _per_file(_wrap, _unwrap, ".wrapped"),
    # Only files that are UTF-8 text are re-encoded; the rest pass unchanged.
    "text-reencode": _per_file(lambda d, s: d.decode("utf-8").encode("utf-16"),
                               lambda d, s: d.decode("utf-16").encode("utf-8"), ".utf16", _is_utf8),
    "split": (_split_fwd, _split_back),
    "manifest": (_manifest_fwd, _manifest_back),
    "archive": (_archive_fwd, _archive_back),
    "line-base64": _per_line("line-base64"),
    "line-hex": _per_line("line-hex"),
    "line-reverse": _per_line("line-reverse"),
    "line-rotate": _per_line("line-rotate"),
}


def _into_folder(src, dst):
    """Copies an input (file or folder) to the folder dst; returns the file's name, or None."""
    import shutil
    if os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=False)
        return None
    os.makedirs(dst)
    shutil.copyfile(src, os.path.join(dst, os.path.basename(src)))
    return os.path.basename(src)


def _contents_into_folder(src, dst):
    """_into_folder for a restore: the same tree of file contents (symlinks followed, empty folders
    kept), without shutil, whose imports a wrapped program would pay on every call."""
    if not os.path.isdir(src):
        _write(os.path.join(dst, os.path.basename(src)), _read(src))
        return os.path.basename(src)
    os.makedirs(dst)
    for d, dirs, names in os.walk(src, followlinks=True):
        dirs.sort()
        here = os.path.join(dst, os.path.relpath(d, src))
        os.makedirs(here, exist_ok=True)
        for n in sorted(names):
            _write(os.path.join(here, n), _read(os.path.join(d, n)))
    return None


def _out_of_folder(dst, single):
    if single is None:
        return dst
    files = _files(dst)
    if len(files) != 1:
        raise ValueError("a single-file input became %d files" % len(files))
    return os.path.join(dst, files[0])


# Inputs up to this many bytes are transformed in memory (_Mem); larger ones on disk (_Disk).
# The planner keeps a channel's growth near 4x (SIZE_GROWTH_BUDGET), so the grader holds a few
# hundred MB at most, well inside a verifier's usual memory; past this, per-file costs no longer
# dominate anyway.
MEM_LIMIT = 64 << 20


def _run(src, steps, scratch, undo):
    os.makedirs(scratch, exist_ok=True)
    n = len(os.listdir(scratch))
    if undo:
        # A counter, not a digest: hashlib is a few ms to import in each wrapped call.
        dst = os.path.join(scratch, "restored-%d" % n)
    else:
        dst = os.path.join(scratch, "presented-%s" % _name(n, src))
    single = None if os.path.isdir(src) else os.path.basename(src)
    # A present keeps what shutil.copytree keeps of a folder (modes, times); a restore, like a
    # single file's copy, only the contents.
    t = _Mem.load(src, keep_stat=not undo and single is None, limit=MEM_LIMIT)
    if t is None:
        single = _contents_into_folder(src, dst) if undo else _into_folder(src, dst)
        t = _Disk(dst)
    order = reversed(steps) if undo else steps
    for step in order:
        if single is not None and step["name"] not in ONE_FILE:
            raise ValueError("step %s cannot apply to the single-file input %s" % (step["name"], src))
        STEPS[step["name"]][1 if undo else 0](t, step)
    if isinstance(t, _Mem):
        t.materialize(dst)
    return _out_of_folder(dst, single)


def present(src, steps, scratch):
    """A transformed copy of the input `src` under `scratch`, as the candidate program sees it."""
    return _run(src, steps, scratch, undo=False)


def restore(src, steps, scratch):
    """The original input back from a presented one (a copy under `scratch`)."""
    return _run(src, steps, scratch, undo=True)


def first_path(argv, start):
    """Index of the first argument from `start` on that is an absolute path of an existing file
    or folder (the input of a `first-path` channel), or None."""
    for i in range(start, len(argv)):
        if os.path.isabs(argv[i]) and os.path.exists(argv[i]):
            return i
    return None


def input_position(argv, decl):
    """Where the program's input is in the verifier's argv (["python3", PROGRAM, ...]), or None
    when this call does not run the program on an input."""
    if decl.get("input_kind") == "stream":
        return None
    if decl.get("input_arg") == "first-path":
        if decl["program"] not in argv:
            return None
        at = argv.index(decl["program"]) + 1
        if not command_reads_input(argv[at:], decl):
            return None
        return first_path(argv, at)
    i = decl["input_index"]
    if len(argv) <= i or argv[i - 1] != decl["program"] or not os.path.exists(argv[i]):
        return None
    return i


def command_reads_input(args, decl):
    """False when the channel names the subcommands whose calls read an input (`commands`) and
    this call (its arguments after the program) is not one of them: it creates or changes state
    the program keeps, which is never presented."""
    commands = decl.get("commands")
    return not commands or (len(args) > 0 and args[0] in commands)


def _within(path, folder):
    path, folder = os.path.abspath(path), os.path.abspath(folder)
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def link_siblings(beside, target):
    """Links every other entry of `beside`'s folder next to `target` (names already there are kept)."""
    here, there = os.path.dirname(os.path.abspath(beside)), os.path.dirname(os.path.abspath(target))
    for name in sorted(os.listdir(here)):
        if name != os.path.basename(beside) and not os.path.lexists(os.path.join(there, name)):
            os.symlink(os.path.join(here, name), os.path.join(there, name))


def present_call(argv, decl, ro=()):
    """The verifier kit's hook: (argv, ro) with the program's input replaced by its presented copy.

    A call that lets the program read the folder of a file input (`ro` holds it: a config naming
    files next to it) keeps those neighbours: they are linked beside the presented file, whose
    folder is then read-only for the program too.
    """
    ro = tuple(ro)
    i = input_position(argv, decl)
    if i is None:
        return list(argv), ro
    import tempfile
    src = argv[i]
    out = list(argv)
    out[i] = _present_once(src, decl["steps"], tempfile.mkdtemp(prefix="res-channel-"))
    if os.path.isfile(src) and any(_within(os.path.dirname(src), r) for r in ro):
        link_siblings(src, out[i])
        ro = ro + (os.path.dirname(out[i]),)
    return out, ro


# The verifier's process keeps each input it has presented: graders often run several calls on
# one input (a command, then an audit of the same folder), and at depth 10 presenting the input
# is most of a call's cost (every gzip step compresses the whole grown input again).
_PRESENTED = {}


def _input_key(src, steps):
    """A digest of everything `present` reads (the steps, and the input's tree of names, modes
    and bytes, symlinks followed as the copy follows them), or None when the input cannot be read
    whole. Files' times are left out: a step rewrites a file with the time of its writing anyway."""
    import hashlib
    import json
    h = hashlib.sha256(json.dumps(steps, sort_keys=True).encode())
    try:
        if not os.path.isdir(src):
            mode = os.stat(src).st_mode
            h.update(b"file\0%s\0%o\0" % (os.path.basename(src).encode(), mode))
            h.update(_read(src))
            return h.hexdigest()
        for d, dirs, names in os.walk(src, followlinks=True):
            dirs.sort()
            h.update(b"dir\0%s\0" % os.path.relpath(d, src).encode())
            for n in sorted(names):
                # The copy keeps a file's mode, and a step that passes a file by keeps it too.
                data = _read(os.path.join(d, n))
                mode = os.stat(os.path.join(d, n)).st_mode
                h.update(b"file\0%s\0%o\0%d\0" % (n.encode(), mode, len(data)))
                h.update(data)
    except (OSError, UnicodeError):
        return None
    return h.hexdigest()


def _present_once(src, steps, scratch):
    """present(src, steps, scratch), the transforms run once per distinct input in this process.
    Later calls get a copy of a private, pristine copy of the first result (never shown to a
    program, so nothing a program does to its input reaches another call), under the same kind
    of path present() makes."""
    import shutil
    key = _input_key(src, steps) if not os.listdir(scratch) else None
    if key is None:
        return present(src, steps, scratch)
    # scratch is empty: present() names its copy as the first one there, and a kept copy goes there too.
    made = os.path.join(scratch, "presented-%s" % _name(0, src))
    kept = _PRESENTED.get(key)
    if kept is None:
        out = present(src, steps, scratch)
        import tempfile
        pristine = os.path.join(tempfile.mkdtemp(prefix="res-presented-"), "tree")
        shutil.copytree(made, pristine, symlinks=True)
        _PRESENTED[key] = (pristine, None if out == made else os.path.relpath(out, made))
        return out
    pristine, single = kept
    shutil.copytree(pristine, made, symlinks=True)
    return made if single is None else os.path.join(made, single)


def present_argv(argv, decl):
    """argv with the program's input replaced by its presented copy."""
    return present_call(argv, decl)[0]


WRAPPER_MARK = "# longhaul RES channel wrapper"

def fresh_dir(prefix):
    """A new empty folder under $TMPDIR (default /tmp). Not tempfile.mkdtemp: importing tempfile
    (random, hashlib) costs a wrapped program a few ms on every call. mkdir never follows a
    symlink planted at the name, and an existing name is skipped."""
    base = os.environ.get("TMPDIR") or "/tmp"
    for n in range(100):
        path = os.path.join(base, "%s%d-%d" % (prefix, os.getpid(), n))
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            continue
    import tempfile
    return tempfile.mkdtemp(prefix=prefix)


def run_as_main(path):
    """runpy.run_path(path, run_name="__main__") for a program file, without runpy's imports
    (pkgutil, typing: a few ms on every wrapped call): the program runs in a fresh module that is
    sys.modules["__main__"] meanwhile (classes it defines pickle as they would), with the globals
    runpy gives it, from bytecode when the file is compiled code, as runpy reads it."""
    import marshal
    import sys
    with io.open_code(os.path.abspath(path)) as f:
        data = f.read()
    magic = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
    if data[:4] == magic:
        code = marshal.loads(data[16:])
    else:
        code = compile(data, path, "exec")
    main = type(sys)("__main__")
    main.__dict__.update(__file__=path, __cached__=None, __doc__=None, __loader__=None, __package__="",
                         __spec__=None)
    saved, argv0 = sys.modules.get("__main__"), sys.argv[0]
    sys.modules["__main__"] = main
    sys.argv[0] = path
    try:
        exec(code, main.__dict__)
    finally:
        sys.modules["__main__"], sys.argv[0] = saved, argv0


def _literal(decl):
    """The declaration as a Python literal for a wrapper (json would cost it an import per call)."""
    import json
    return repr(json.loads(json.dumps(decl, sort_keys=True)))


WRAPPER = '''#!/usr/bin/env python3
# longhaul RES channel wrapper
"""Restores this program's input from the task's input channel, then runs the original program."""
import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".res"))
import res_channel
sys.path.pop(0)
DECL = %(decl)s
# Beside the wrapper, so the original finds what it finds from its own folder (a package of its
# own name, data beside __file__) as it did before it was wrapped.
ORIGINAL = os.path.join(HERE, %(aside)r)
if DECL.get("input_arg") == "first-path":
    i = res_channel.first_path(sys.argv, 1) if res_channel.command_reads_input(sys.argv[1:], DECL) else None
else:
    i = DECL["input_index"] - 1
    i = i if len(sys.argv) > i and os.path.exists(sys.argv[i]) else None
if i is not None:
    # A channel planned for the wrong kind of input (a file guessed where the grader passes a
    # folder, or the reverse) must fail here, so the verifier's oracle trials reject the child.
    kind = DECL["input_kind"]
    if kind in ("folder", "file") and os.path.isdir(sys.argv[i]) != (kind == "folder"):
        sys.exit("res channel: the input %%s is not a %%s" %% (sys.argv[i], kind))
    src = sys.argv[i]
    sys.argv[i] = res_channel.restore(src, DECL["steps"], res_channel.fresh_dir("restore-"))
    if os.path.isfile(src):
        # Files the verifier left beside a file input stay beside the restored one.
        res_channel.link_siblings(src, sys.argv[i])
sys.argv[0] = ORIGINAL
res_channel.run_as_main(ORIGINAL)
'''


STREAM_WRAPPER = '''#!/usr/bin/env python3
# longhaul RES channel wrapper
"""Decodes every line this program reads on its standard input, then runs the original program."""
import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".res"))
import res_channel
sys.path.pop(0)
DECL = %(decl)s
ORIGINAL = os.path.join(HERE, %(aside)r)
res_channel.decode_stdin(DECL["steps"])
sys.argv[0] = ORIGINAL
res_channel.run_as_main(ORIGINAL)
'''


def aside_name(name):
    """Where `wrap` moves the program: a hidden file beside it (never importable as a module)."""
    return ".res-parent-" + name


def wrap(program, decl_path):
    """Puts a wrapper at `program` that restores its input, then runs the original (moved aside).

    With LONGHAUL_RES_DEFER_WRAP=1 it does nothing: a child's partial solution runs the root's
    partial.sh, which may run the child's solve.sh and then patch the program itself; the child's
    partial.sh wraps once that is done."""
    if os.environ.get("LONGHAUL_RES_DEFER_WRAP") == "1":
        return
    import json
    with open(decl_path) as f:
        decl = json.load(f)
    here = os.path.dirname(os.path.abspath(program))
    kit = os.path.join(here, ".res")
    os.makedirs(kit, exist_ok=True)
    import py_compile
    import shutil
    shutil.copyfile(os.path.abspath(__file__), os.path.join(kit, "res_channel.py"))
    # Compiled now, while the folder is writable: the graded calls run with it read-only, where
    # Python would otherwise compile this module again on every call.
    py_compile.compile(os.path.join(kit, "res_channel.py"), doraise=False)
    name = os.path.basename(program)
    aside = os.path.join(here, aside_name(name))
    with open(program, "rb") as f:
        wrapped = os.path.exists(aside) and WRAPPER_MARK.encode() in f.read(200)
    # Wrapping twice (a partial solution that runs the child's solve.sh, then is wrapped itself)
    # only rewrites the wrapper: the original stays aside, never replaced by a wrapper.
    if not wrapped:
        os.replace(program, aside)
    with open(program, "w") as f:
        template = STREAM_WRAPPER if decl["input_kind"] == "stream" else WRAPPER
        f.write(template % {"decl": _literal(decl), "aside": aside_name(name)})
    os.chmod(program, 0o755)


if __name__ == "__main__":
    import sys

    if len(sys.argv) >= 5 and sys.argv[1] == "stream" and sys.argv[3] == "--":
        # The verifier's side of a stream channel: the program behind a filter that encodes its input.
        steps = _read_json(sys.argv[2])["steps"]
        sys.exit(pump(sys.argv[4:], lambda line: encode_line(line, steps)))
    if len(sys.argv) != 4 or sys.argv[1] != "wrap":
        sys.stderr.write("usage: res_channel.py wrap PROGRAM CHANNEL_JSON | stream CHANNEL_JSON -- ARGV...\n")
        sys.exit(2)
    wrap(sys.argv[2], sys.argv[3])
