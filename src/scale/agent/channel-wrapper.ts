import { posix } from "node:path";
import type { ChannelDecl } from "../channel/steps.js";
import { FollowError } from "./follow-error.js";

/**
 * The program wrapper the `follow` agent writes for a program task's child: it undoes, from the
 * last step to the first, what the instruction says was done to the input, then runs the
 * original program (moved aside) on the restored copy. Its decoders are written from the public
 * words of each step, not taken from the verifier's channel kit.
 */

/**
 * Where the original program goes: a hidden file beside the wrapper that replaces it, so the
 * original still finds what it finds from its own folder (a package of its own name, data beside
 * `__file__`), and is never importable as a module.
 */
export function asideName(program: string): string {
  return `.follow-${posix.basename(program)}`;
}

/** Python, per step name: a function (root, params) undoing the step on the folder `root` in place. */
const UNDO: Readonly<Record<string, string>> = {
  // "base64 text (with line breaks) with `.b64` appended to its name; decode it."
  base64: "per_file('.b64', lambda d, p: base64.b64decode(b''.join(d.split())))",
  // "gzip-compressed with `.gz` appended to its name; decompress it."
  gzip: "per_file('.gz', lambda d, p: gzip.decompress(d))",
  // "wrapped in layers with `.wrapped` appended ...: A, then B were applied in that order ...; undo them from the last."
  "layered-wrap": "per_file('.wrapped', unlayer)",
  // "that is UTF-8 text is re-encoded as UTF-16 (with a byte-order mark) with `.utf16` appended ...; other files are unchanged."
  "text-reencode": "per_file('.utf16', lambda d, p: d.decode('utf-16').encode('utf-8'))",
  // "split into parts named `NAME.part000`, `NAME.part001`, ...; join the parts in order to get `NAME` back."
  split: "join_parts",
  // "moved to opaque paths under `store/`; `MANIFEST.json` ... maps each original relative path (key of its `files` object) to where that file now is."
  manifest: "from_manifest",
  // "packed into one uncompressed tar archive, `bundle.tar`, at the top of the folder ...; unpack it."
  archive: "unpack_bundle",
};

/** Python, per line step: a function undoing the step on one line's bytes (no newline) with its parameters. */
const LINE_UNDO: Readonly<Record<string, string>> = {
  // "Every line is base64-encoded on its own (standard alphabet, one encoded line per line); decode it."
  "line-base64": "lambda b, p: base64.b64decode(b)",
  // "Every line is written as lowercase hexadecimal text of its bytes (two digits a byte); decode it."
  "line-hex": "lambda b, p: binascii.unhexlify(b)",
  // "Every line's bytes are in reverse order; reverse them back."
  "line-reverse": "lambda b, p: b[::-1]",
  // "Every line's bytes are rotated left by K modulo its length ...; rotate them back."
  "line-rotate":
    "lambda b, p: b[-(p['shift'] % len(b)):] + b[:-(p['shift'] % len(b))] if b and p['shift'] % len(b) else b",
};

/** Channel steps the wrapper can undo (a step the agent can read but not undo is an error). */
export const WRAPPABLE_STEPS: readonly string[] = [...Object.keys(UNDO), ...Object.keys(LINE_UNDO)];

/**
 * An interactive program's wrapper: decodes each line it reads on stdin and hands it on at once
 * (the dialogue goes line by line). It closes its own stdout so that the original's exit ends
 * the stream its reader sees.
 */
function streamWrapperSource(decl: ChannelDecl): string {
  const name = posix.basename(decl.program);
  const undo = Object.entries(LINE_UNDO).map(([k, v]) => `    ${JSON.stringify(k)}: ${v},`);
  return [
    "#!/usr/bin/env python3",
    '"""Written by the follow agent from its task\'s instruction: decodes every line read on',
    'standard input, then passes it on to the original program."""',
    "import base64, binascii, json, os, subprocess, sys",
    "",
    "HERE = os.path.dirname(os.path.abspath(__file__))",
    "UNDO = {",
    ...undo,
    "}",
    `STEPS = ${pyJson(decl.steps.map((s) => [s.name, s.params]))}`,
    `ORIGINAL = os.path.join(HERE, ${JSON.stringify(asideName(name))})`,
    "p = subprocess.Popen([sys.executable, ORIGINAL] + sys.argv[1:], stdin=subprocess.PIPE)",
    "sys.stdout.flush()",
    "os.close(1)",
    "try:",
    '    for line in iter(sys.stdin.buffer.readline, b""):',
    '        end = line.endswith(b"\\n")',
    "        body = line[:-1] if end else line",
    "        for name, params in reversed(STEPS):",
    "            body = UNDO[name](body, params)",
    '        p.stdin.write(body + (b"\\n" if end else b""))',
    "        p.stdin.flush()",
    "    p.stdin.close()",
    "except (BrokenPipeError, ValueError):",
    "    pass",
    "code = p.wait()",
    "sys.exit(128 - code if code < 0 else code)",
    "",
  ].join("\n");
}

const PRELUDE = String.raw`#!/usr/bin/env python3
"""Written by the follow agent from its task's instruction: restores the input argument, then
runs the original program on it."""
import base64, binascii, gzip, json, os, re, runpy, shutil, sys, tarfile, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def files(root):
    out = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        out += sorted(os.path.relpath(os.path.join(d, n), root) for n in names)
    return out


def read(p):
    with open(p, "rb") as f:
        return f.read()


def write(p, data):
    os.makedirs(os.path.dirname(p) or ".", exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)


def per_file(suffix, decode):
    def undo(root, params):
        for rel in files(root):
            if rel.endswith(suffix):
                p = os.path.join(root, rel)
                data = decode(read(p), params)
                os.remove(p)
                write(p[: -len(suffix)], data)
    return undo


LAYERS = {
    "gzip": gzip.decompress,
    "base64": lambda d: base64.b64decode(b"".join(d.split())),
    "hex": lambda d: binascii.unhexlify(b"".join(d.split())),
}


def unlayer(data, params):
    for layer in reversed(params["layers"]):
        data = LAYERS[layer](data)
    return data


def join_parts(root, params):
    groups = {}
    for rel in files(root):
        m = re.match(r"^(.*)\.part(\d{3,})$", rel)
        if m:
            groups.setdefault(m.group(1), []).append((int(m.group(2)), rel))
    for name, parts in groups.items():
        data = b"".join(read(os.path.join(root, rel)) for _, rel in sorted(parts))
        for _, rel in parts:
            os.remove(os.path.join(root, rel))
        write(os.path.join(root, name), data)


def prune(top):
    for d, _dirs, _names in os.walk(top, topdown=False):
        if not os.listdir(d):
            os.rmdir(d)


def from_manifest(root, params):
    where = os.path.join(root, "MANIFEST.json")
    moved = json.loads(read(where))["files"]
    os.remove(where)
    for rel, now in sorted(moved.items()):
        data = read(os.path.join(root, now))
        os.remove(os.path.join(root, now))
        write(os.path.join(root, rel), data)
    if os.path.isdir(os.path.join(root, "store")):
        prune(os.path.join(root, "store"))


def unpack_bundle(root, params):
    p = os.path.join(root, "bundle.tar")
    data = read(p)
    os.remove(p)
    import io
    with tarfile.open(fileobj=io.BytesIO(data)) as t:
        for m in t.getmembers():
            if m.isfile() and not m.name.startswith("/") and ".." not in m.name.split("/"):
                write(os.path.join(root, m.name), t.extractfile(m).read())
`;

function pyJson(v: unknown): string {
  return `json.loads(${JSON.stringify(JSON.stringify(v))})`;
}

/** The wrapper's source for the channel `decl` (as parsed from the instruction). */
export function wrapperSource(decl: ChannelDecl): string {
  if (decl.input_kind === "stream") {
    for (const s of decl.steps) {
      if (LINE_UNDO[s.name] === undefined)
        throw new FollowError(`the agent reads channel step ${s.name} but cannot undo it on a stream`);
    }
    return streamWrapperSource(decl);
  }
  for (const s of decl.steps) {
    if (UNDO[s.name] === undefined)
      throw new FollowError(`the agent reads channel step ${s.name} but has no way to undo it`);
  }
  const name = posix.basename(decl.program);
  const undo = Object.entries(UNDO).map(([k, v]) => `    ${JSON.stringify(k)}: ${v},`);
  return [
    PRELUDE,
    "UNDO = {",
    ...undo,
    "}",
    `STEPS = ${pyJson(decl.steps.map((s) => ({ name: s.name, params: s.params })))}`,
    `ARG = ${decl.input_index - 1}`,
    `FIRST_PATH = ${decl.input_arg === "first-path" ? "True" : "False"}`,
    `COMMANDS = ${pyJson(decl.commands ?? null)}`,
    `ORIGINAL = os.path.join(HERE, ${JSON.stringify(asideName(name))})`,
    "",
    "# The input: the first argument that is an absolute path of an existing file or folder, or a fixed one.",
    "# Only calls of the named subcommands read an input that was prepared; the others are left alone.",
    "if FIRST_PATH and COMMANDS is not None and (len(sys.argv) < 2 or sys.argv[1] not in COMMANDS):",
    "    ARG = len(sys.argv)",
    "elif FIRST_PATH:",
    "    ARG = next((i for i, a in enumerate(sys.argv) if i > 0 and os.path.isabs(a) and os.path.exists(a)), len(sys.argv))",
    "if len(sys.argv) > ARG and os.path.exists(sys.argv[ARG]):",
    "    src = sys.argv[ARG]",
    '    work = os.path.join(tempfile.mkdtemp(prefix="follow-"), "input")',
    "    if os.path.isdir(src):",
    "        shutil.copytree(src, work)",
    "    else:",
    "        os.makedirs(work)",
    "        shutil.copyfile(src, os.path.join(work, os.path.basename(src)))",
    "    for step in reversed(STEPS):",
    '        UNDO[step["name"]](work, step["params"])',
    "    if os.path.isdir(src):",
    "        sys.argv[ARG] = work",
    "    else:",
    "        left = files(work)",
    "        if len(left) != 1:",
    '            sys.exit("follow wrapper: the input file became %d files" % len(left))',
    "        sys.argv[ARG] = os.path.join(work, left[0])",
    "        # What lies beside the input file stays beside the restored one (the instruction says so).",
    "        for name in sorted(os.listdir(os.path.dirname(src))):",
    "            if name != os.path.basename(src) and not os.path.lexists(os.path.join(work, name)):",
    "                os.symlink(os.path.join(os.path.dirname(src), name), os.path.join(work, name))",
    "sys.argv[0] = ORIGINAL",
    'runpy.run_path(ORIGINAL, run_name="__main__")',
    "",
  ].join("\n");
}

/** Shell command that moves the program aside and installs the wrapper read from stdin. */
export function installCommand(decl: ChannelDecl): string {
  const dir = posix.dirname(decl.program);
  const aside = posix.join(dir, asideName(decl.program));
  const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
  return [
    `test -f ${q(decl.program)}`,
    `mv ${q(decl.program)} ${q(aside)}`,
    `cat > ${q(decl.program)}`,
    `chmod 755 ${q(decl.program)}`,
  ].join(" && ");
}
