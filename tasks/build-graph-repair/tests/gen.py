"""Seeded build graphs for minibuild, planned as data before any build file is written.

A case is first a resolved graph (every target's normal and order-only prerequisites, its final
command lines, phony or not), the workspace's files and a previous state; only then is a Buildfile
rendered from it (variables, pattern families, explicit rules in shuffled order). Expected outputs
are derived from the planned graph by methods of this file's own: the build order by repeated
selection of the smallest ready name (no heap, no depth-first search), cycles by testing each
target's reachability from itself, reasons straight from the table of the specification applied
to planted changes, builds and audits by walking the planned graph. Nothing here parses a
Buildfile or reads a rendered file back.
"""
import hashlib
import json

T0 = 1764000000  # built_at of every recorded previous build
OLD = T0 - 5000  # mtime of files untouched since that build
WORDS = [
    "alder", "basil", "cedar", "delta", "ember", "fjord", "gamma", "heron", "indigo", "jasper",
    "kilo", "lumen", "mango", "nectar", "onyx", "pollen", "quartz", "raven", "sable", "tango",
    "umbra", "vapor", "willow", "xenon", "yucca", "zephyr", "amber", "birch", "coral", "dune",
    "elm", "flint", "garnet", "hazel", "iris", "juno", "koala", "lotus", "maple", "nova",
    "opal", "pike", "quill", "rune", "sage", "tulip", "urchin", "vine", "wren", "yarrow",
]


def sha(b):
    return hashlib.sha256(b).hexdigest()


def cmd_hash(lines):
    return sha("\n".join(lines).encode())


# ------------------------------------------------------------------ variables with known values

class Vars:
    """Header (before the rules) and trailer (after them) definitions with their known values:
    `rt` as rule lines see them, `fin` as command lines see them."""

    def __init__(self, rng, used):
        pool = rng.shuffle(["TOOL", "CC", "OPT", "FLAGS", "LIBS", "EXTRA", "LVL", "DEFS", "MODE", "LATE",
                            "ODIR", "WRAP", "STAMP", "NOTE"])
        suffix = rng.pick(["", "_X", "1", "_B"])
        n = {k: k + suffix for k in pool}
        w = rng.shuffle(WORDS)
        self.head, self.tail, self.rt, self.fin = [], [], {}, {}
        a1, a2, o1, o2, d1, d2, m, x, y, z = w[:10]
        # recursive: sees the final TOOL
        self.head += ["%s = %s" % (n["TOOL"], a1), "%s = %s -q" % (n["CC"], self.ref(rng, n["TOOL"]))]
        self.tail += ["%s = %s" % (n["TOOL"], a2)]
        self.fin[n["CC"]] = "%s -q" % a2
        self.fin[n["TOOL"]] = a2
        # simple: frozen at its definition
        self.head += ["%s = %s" % (n["OPT"], o1), "%s := %s -g" % (n["FLAGS"], self.ref(rng, n["OPT"]))]
        self.tail += ["%s = %s" % (n["OPT"], o2)]
        self.fin[n["FLAGS"]] = "%s -g" % o1
        # append to a recursive variable: the reference stays unexpanded
        self.head += ["%s = -l%s" % (n["LIBS"], x), "%s += %s" % (n["LIBS"], self.ref(rng, n["EXTRA"]))]
        self.tail += ["%s = -l%s" % (n["EXTRA"], y)]
        self.fin[n["LIBS"]] = "-l%s -l%s" % (x, y)
        # append to a simple variable: expanded when appended
        self.head += ["%s = %s" % (n["LVL"], d1), "%s := -D%s" % (n["DEFS"], z),
                      "%s += %s" % (n["DEFS"], self.ref(rng, n["LVL"]))]
        self.tail += ["%s = %s" % (n["LVL"], d2)]
        self.fin[n["DEFS"]] = "-D%s %s" % (z, d1)
        # forward reference, defined only after the rules
        self.head += ["%s = %s" % (n["MODE"], self.ref(rng, n["LATE"]))]
        self.tail += ["%s = %s" % (n["LATE"], m)]
        self.fin[n["MODE"]] = m
        # a directory name: rule lines see the first value, commands the last
        self.head += ["%s = obj" % n["ODIR"]]
        self.tail += ["%s = %s" % (n["ODIR"], w[10])]
        self.rt[n["ODIR"]] = "obj"
        self.fin[n["ODIR"]] = w[10]
        self.names = n
        self.used = used

    @staticmethod
    def ref(rng, name):
        return ("${%s}" if rng.next() < 0.3 else "$(%s)") % name

    def command_vars(self):
        n = self.names
        return [n["CC"], n["FLAGS"], n["LIBS"], n["DEFS"], n["MODE"], n["ODIR"], n["TOOL"]]


# ------------------------------------------------------------------ commands as tokens
# A command line is a list of tokens: ("lit", text), ("var", NAME), ("auto", c). Rendering writes
# each literal with `$` doubled; the final text takes each variable's final value and each
# automatic variable's value for the target.

def render_tokens(tokens, rng):
    out = []
    for kind, v in tokens:
        if kind == "lit":
            out.append(v.replace("$", "$$"))
        elif kind == "var":
            out.append(Vars.ref(rng, v))
        else:
            out.append("$" + v)
    return "".join(out)


def final_tokens(tokens, fin, auto):
    out = []
    for kind, v in tokens:
        if kind == "lit":
            out.append(v)
        elif kind == "var":
            out.append(fin.get(v, ""))
        else:
            out.append(auto[v])
    return "".join(out)


def autos(t, stem):
    return {"@": t["name"], "<": t["pre"][0] if t["pre"] else "", "^": " ".join(t["pre"]),
            "|": " ".join(t["oo"]), "*": stem}


def plan_command(rng, vs, kind):
    """A command template for plan-only cases (never run)."""
    pieces = []
    if vs is not None:
        cv = vs.command_vars()
        for name in rng.shuffle(cv)[:rng.int(1, 3)]:
            pieces.append(("var", name))
            pieces.append(("lit", " "))
    else:
        pieces.append(("lit", rng.pick(["cc ", "ld ", "gen ", "pack "])))
    pieces += [("lit", rng.pick(["-c ", "-i ", "--in "])), ("auto", rng.pick(["<", "^"])),
               ("lit", " -o "), ("auto", "@")]
    lines = [pieces]
    r = rng.next()
    if r < 0.3:
        lines.append([("lit", "echo built "), ("auto", "*" if kind == "pattern" else "@"), ("lit", " $PWD")])
    elif r < 0.5:
        lines.append([("lit", "touch -c "), ("auto", "|" if rng.next() < 0.5 else "@")])
    return lines


def run_command(rng, vs, fail):
    """A command template for cases that are built: logs the target, then writes the file."""
    lines = [[("lit", "echo "), ("auto", "@"), ("lit", " >> runs.log")]]
    if fail == "exit":
        lines.append([("lit", "exit 3")])
        return lines
    if fail == "nofile":
        lines.append([("lit", "rm -f "), ("auto", "@")])
        return lines
    lines.append([("lit", "cat "), ("auto", "^"), ("lit", " /dev/null > "), ("auto", "@")])
    tag = [("lit", "echo ")]
    if vs is not None:
        tag.append(("var", rng.pick([vs.names["TOOL"], vs.names["MODE"], vs.names["FLAGS"]])))
    else:
        tag.append(("lit", rng.pick(WORDS)))
    tag += [("lit", " >> "), ("auto", "@")]
    lines.append(tag)
    return lines


def echo_value(line_final):
    """What `echo WORDS >> FILE` appends."""
    words = line_final[len("echo "):line_final.rindex(" >> ")].split()
    return (" ".join(words) + "\n").encode()


# ------------------------------------------------------------------ the planned graph

class Graph:
    """targets: name -> {name, pre, oo, cmds (final lines), phony, stem, tokens}; sources: the
    workspace's files (path -> bytes); the Buildfile rendered from `items`."""

    def __init__(self):
        self.targets = {}
        self.files = {}
        self.mtimes = {}
        self.items = []  # rendered rule texts, shuffled at the end
        self.head = []
        self.tail = []
        self.phony_names = []
        self.first = None  # the first explicit rule (default goal)

    def add(self, name, pre, oo, tokens, phony=False, stem=""):
        t = {"name": name, "pre": list(pre), "oo": [x for x in oo if x not in pre], "phony": phony,
             "stem": stem, "tokens": tokens, "cmds": []}
        self.targets[name] = t
        return t

    def finish(self, fin):
        for t in self.targets.values():
            t["cmds"] = [final_tokens(line, fin, autos(t, t["stem"])) for line in t["tokens"]]


def new_names(rng, k, taken, fmt):
    out = []
    for w in rng.shuffle(WORDS):
        for s in ("", "2", "x"):
            name = fmt % (w + s)
            if name not in taken:
                break
        else:
            continue
        taken.add(name)
        out.append(name)
        if len(out) == k:
            break
    return out


def build_graph(rng, *, n_src=6, n_obj=5, n_top=4, patterns=True, use_vars=True, runnable=False,
                fail_fn=None, dirs=True, extras=True, sub_stems=True, order_only=True):
    """A random graph: sources src/*.c and inc/*.h, object-like targets (a pattern family or explicit
    rules), top targets over them (explicit rules, a random DAG), a phony `all` first."""
    g = Graph()
    taken = set()
    vs = Vars(rng, True) if use_vars else None
    fin = vs.fin if vs else {}
    rt = vs.rt if vs else {}
    odir_var = vs.names["ODIR"] if vs else None
    stems = [w for w in new_names(rng, n_src, taken, "%s")]
    if sub_stems and n_src >= 3:
        stems[1] = "lib/" + stems[1]
        stems[2] = "lib/" + stems[2]
    for s in stems:
        path = "src/%s.c" % s
        g.files[path] = ("// %s\nint %s = %d;\n" % (s, s.replace("/", "_"), rng.int(0, 999))).encode()
    headers = ["inc/%s.h" % w for w in new_names(rng, 2, taken, "%s")]
    for h in headers:
        g.files[h] = ("#define %s %d\n" % (h[4:-2].upper(), rng.int(0, 99))).encode()
    if dirs:
        g.add("dirs", [], [], [[("lit", "mkdir -p obj/lib out gen")]] if runnable else
              [[("lit", "mkdir -p obj out")]], phony=True)
        g.phony_names.append("dirs")
        g.items.append(("dirs", "dirs:\n\t%s\n" % ("mkdir -p obj/lib out gen" if runnable else "mkdir -p obj out")))
    oo_dirs = ["dirs"] if dirs else []

    def cmd_for(kind, fail=None):
        return run_command(rng, vs, fail) if runnable else plan_command(rng, vs, kind)

    fail_fn = fail_fn or (lambda name: None)
    objs = []
    obj_stems = stems[:n_obj]
    if patterns:
        fam_hdr = headers[0]
        fam_tokens = cmd_for("pattern")
        fam_pre = ["src/%.c", fam_hdr]
        # decoy families: one before that matches nothing used, one after that also matches
        decoy = cmd_for("pattern")
        g.items.append(("~fam0", "obj/%%.ob: src/%%.c\n%s" % "".join("\t%s\n" % render_tokens(line, rng) for line in decoy)))
        fam_text = "%s/%%.o: %s | %s\n%s" % (
            Vars.ref(rng, odir_var) if vs else "obj", " ".join(fam_pre), " ".join(oo_dirs),
            "".join("\t%s\n" % render_tokens(line, rng) for line in fam_tokens))
        late = cmd_for("pattern")
        late_text = "obj/%%.o: src/%%.c\n%s" % "".join("\t%s\n" % render_tokens(line, rng) for line in late)
        g.items.append(("~fam1", fam_text))
        g.items.append(("~fam2", late_text))
        override = obj_stems[-1] if extras and len(obj_stems) > 2 else None
        extra_hdr = obj_stems[0] if extras else None
        for s in obj_stems:
            name = "obj/%s.o" % s
            pre = ["src/%s.c" % s, fam_hdr]
            if s == extra_hdr:
                pre.append(headers[1])
                g.items.append(("obj/%s.o+" % s, "obj/%s.o: %s\n" % (s, headers[1])))
            if s == override:
                tokens = cmd_for("explicit", fail_fn(name))
                pre = ["src/%s.c" % s]
                t = g.add(name, pre, oo_dirs, tokens)
                g.items.append((name, "obj/%s.o: src/%s.c | %s\n%s" % (s, s, " ".join(oo_dirs), "".join(
                    "\t%s\n" % render_tokens(line, rng) for line in tokens))))
            else:
                fk = fail_fn(name)
                if fk:
                    # a failing object: an explicit rule with commands overrides the family
                    tokens = cmd_for("explicit", fk)
                    t = g.add(name, pre, oo_dirs, tokens)
                    g.items.append((name, "obj/%s.o: %s | %s\n%s" % (s, " ".join(pre), " ".join(oo_dirs), "".join(
                        "\t%s\n" % render_tokens(line, rng) for line in tokens))))
                else:
                    t = g.add(name, pre, oo_dirs, fam_tokens, stem=s)
            objs.append(name)
    else:
        for s in obj_stems:
            name = "obj/%s.o" % s
            pre = ["src/%s.c" % s] + ([headers[0]] if rng.next() < 0.6 else [])
            tokens = cmd_for("explicit", fail_fn(name))
            g.add(name, pre, oo_dirs, tokens)
            od = Vars.ref(rng, odir_var) if vs else "obj"
            g.items.append((name, "%s/%s.o: %s | %s\n%s" % (od, s, " ".join(pre), " ".join(oo_dirs), "".join(
                "\t%s\n" % render_tokens(line, rng) for line in tokens))))
            objs.append(name)
    # top targets: a random DAG over objects and earlier tops
    tops = []
    top_names = new_names(rng, n_top, taken, "out/%s.bin")
    for i, name in enumerate(top_names):
        pool = objs + tops
        k = min(len(pool), rng.int(1, 3))
        pre = rng.shuffle(pool)[:k]
        if tops and rng.next() < 0.5 and tops[-1] not in pre:
            pre.append(tops[-1])
        if rng.next() < 0.3:
            pre.append(rng.pick(headers))
        oo = list(oo_dirs)
        if order_only and tops and rng.next() < 0.5:
            cand = [x for x in tops + objs if x not in pre]
            if cand:
                oo.append(rng.pick(cand))
        tokens = cmd_for("explicit", fail_fn(name))
        g.add(name, pre, oo, tokens)
        g.items.append((name, "%s: %s%s\n%s" % (name, " ".join(pre), (" | " + " ".join(oo)) if oo else "", "".join(
            "\t%s\n" % render_tokens(line, rng) for line in tokens))))
        tops.append(name)
    # phony all, first in the file
    goal_pre = [t for t in tops if not any(t in g.targets[u]["pre"] for u in tops)] or tops[-1:]
    g.add("all", goal_pre, [], [], phony=True)
    g.phony_names.append("all")
    g.first = "all"
    if vs:
        g.head, g.tail = vs.head, vs.tail
    g.finish(fin)
    g.vs = vs
    g.rt = rt
    return g


def render(g, rng, head_items=()):
    """Rules in random order, except that pattern families keep their relative order and a
    prerequisite-only rule ("NAME+") comes after the rule it extends."""
    base = rng.shuffle([(k, t) for k, t in g.items if not k.startswith("~") and not k.endswith("+")])
    for k, t in [(k, t) for k, t in g.items if k.startswith("~")]:
        last = max([i for i, (kk, _) in enumerate(base) if kk.startswith("~")], default=-1)
        base.insert(rng.int(last + 1, len(base)), (k, t))
    for k, t in [(k, t) for k, t in g.items if k.endswith("+")]:
        at = [i for i, (kk, _) in enumerate(base) if kk == k[:-1]]
        lo = at[0] + 1 if at else 0
        base.insert(rng.int(lo, len(base)), (k, t))
    lines = ["# generated build file", ""]
    lines += list(g.head) + [""]
    all_t = g.targets.get("all")
    if all_t is not None:
        lines.append("all: %s" % " ".join(all_t["pre"]))
        lines.append("")
    lines.append(".PHONY: %s" % " ".join(g.phony_names))
    lines.append("")
    lines += list(head_items)
    for _, txt in base:
        lines.append(txt)
    lines += list(g.tail)
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ expected values (own methods)

def closure(g, goals):
    seen, todo = [], list(goals)
    while todo:
        x = todo.pop(0)
        if x in seen:
            continue
        seen.append(x)
        if x in g.targets:
            todo += g.targets[x]["pre"] + g.targets[x]["oo"]
    return [x for x in seen if x in g.targets], [x for x in seen if x not in g.targets]


def target_edges(g, name):
    t = g.targets[name]
    return [p for p in t["pre"] + t["oo"] if p in g.targets]


def reaches_itself(g, name):
    frontier, seen = list(target_edges(g, name)), set()
    while frontier:
        x = frontier.pop()
        if x == name:
            return True
        if x not in seen:
            seen.add(x)
            frontier += target_edges(g, x)
    return False


def build_order(g, names):
    """Repeated selection: the smallest name whose target prerequisites are all placed."""
    placed, out, rest = set(), [], set(names)
    while rest:
        ready = [n for n in rest if all(p in placed for p in target_edges(g, n))]
        n = min(ready)
        out.append(n)
        placed.add(n)
        rest.discard(n)
    return out


def error_of(g, goals, files):
    names, srcs = closure(g, goals)
    cyc = [n for n in names if reaches_itself(g, n)]
    if cyc:
        return "error: cycle through %s" % min(cyc)
    missing = [s for s in srcs if s not in files]
    if missing:
        return "error: missing source: %s" % min(missing)
    return None


def hashed_pre(g, t):
    return [p for p in t["pre"] if not (p in g.targets and g.targets[p]["phony"])]


def reasons(g, goals, files, state):
    """(order, {target: reason}) straight from the specification's table."""
    names, _ = closure(g, goals)
    order = build_order(g, names)
    out = {}
    for n in order:
        t = g.targets[n]
        if t["phony"]:
            out[n] = "phony" if t["cmds"] else "up_to_date"
            continue
        e = state.get(n)
        pre = hashed_pre(g, t)
        cur = lambda p: sha(files[p]) if p in files else None  # noqa: E731
        if e is None:
            r = "new"
        elif not e["ok"]:
            r = "failed_last"
        elif n not in files:
            r = "missing_output"
        elif sha(files[n]) != e["output"]:
            r = "output_changed"
        elif cmd_hash(t["cmds"]) != e["command"]:
            r = "command_changed"
        elif sorted(pre) != sorted(e["inputs"]):
            r = "prereqs_changed"
        elif any(cur(p) != e["inputs"][p] for p in pre):
            r = "input_changed"
        elif any(out.get(p, "up_to_date") != "up_to_date" for p in pre if p in g.targets):
            r = "dep_rebuilt"
        else:
            r = "up_to_date"
        out[n] = r
    return order, out


def plan_lines(g, goals, files, state):
    err = error_of(g, goals, files)
    if err:
        return [err], [err]
    order, rs = reasons(g, goals, files, state)
    plan = []
    for n in order:
        if rs[n] != "up_to_date":
            plan += g.targets[n]["cmds"]
    return plan, ["%s %s" % (n, rs[n]) for n in order]


def depends_on(g, name, others):
    seen, todo = set(), list(target_edges(g, name))
    while todo:
        x = todo.pop()
        if x in others:
            return True
        if x not in seen:
            seen.add(x)
            todo += target_edges(g, x)
    return False


def simulate_build(g, goals, files, state, keep_going):
    """Runs the plan on the planned graph: (run list, exit status, final state entries, files)."""
    files = dict(files)
    state = {k: dict(v) for k, v in state.items()}
    order, rs = reasons(g, goals, files, state)
    failed, runs = set(), []
    for n in order:
        if rs[n] == "up_to_date":
            continue
        if keep_going and depends_on(g, n, failed):
            continue
        t = g.targets[n]
        runs.append(n)
        inputs = {p: sha(files[p]) if p in files else None for p in hashed_pre(g, t)}
        ok = not any(c == "exit 3" or c.startswith("rm -f ") for c in t["cmds"])
        if not ok and any(c.startswith("rm -f ") for c in t["cmds"]):
            files.pop(n, None)
        if ok and not t["phony"]:
            body = b"".join(files.get(p, b"") for p in t["pre"])
            body += echo_value(t["cmds"][2])
            files[n] = body
        if not t["phony"]:
            state[n] = {"ok": ok, "command": cmd_hash(t["cmds"]), "inputs": inputs,
                        "output": sha(files[n]) if ok else None}
        if not ok:
            failed.add(n)
            if not keep_going:
                break
    return runs, (1 if failed else 0), state, files


def audit_rows(g, goals, files, state, keep_going, ran, failed_log):
    order, rs = reasons(g, goals, files, state)
    names = set(order)
    expected, failed, blocked = [], set(), set()
    stop = False
    for n in order:
        if rs[n] == "up_to_date":
            continue
        if stop or (keep_going and depends_on(g, n, failed)):
            blocked.add(n)
            continue
        expected.append(n)
        if n in failed_log:
            failed.add(n)
            stop = not keep_going
    rows = set()
    for n in set(ran):
        if n in expected:
            rows.add((n, "necessary", rs[n]))
        elif n in blocked:
            rows.add((n, "unnecessary", "blocked"))
        elif n in names:
            rows.add((n, "unnecessary", "up_to_date"))
        else:
            rows.add((n, "unnecessary", "not_in_goal"))
    for n in expected:
        if n not in ran:
            rows.add((n, "missing", rs[n]))
    return rows


# ------------------------------------------------------------------ previous builds and changes

def previous_state(g, names, rng):
    """As if every non-phony target of `names` had been built successfully at T0: outputs written,
    inputs and commands recorded."""
    state = {}
    for n in build_order(g, names):
        t = g.targets[n]
        if t["phony"]:
            continue
        body = ("built %s %d\n" % (n, rng.int(0, 9999))).encode()
        g.files[n] = body
        state[n] = {"ok": True, "command": cmd_hash(t["cmds"]),
                    "inputs": {p: sha(g.files[p]) for p in hashed_pre(g, t)},
                    "output": sha(body), "built_at": T0}
    return state


CHANGES = ["edit_source", "touch_source", "delete_output", "edit_output", "failed", "command",
           "prereqs", "forget", "edit_header_oo", "edit_target_file"]


def plant_changes(g, state, rng, k, names):
    """Plants k changes on distinct things; returns their labels. Every file not touched keeps mtime
    OLD; an edited file keeps an old mtime too (only content counts), a touched one gets a new one."""
    for p in g.files:
        g.mtimes[p] = OLD
    labels = []
    built = [n for n in names if n in state]
    srcs = [p for p in g.files if p.startswith(("src/", "inc/"))]
    used = set()
    for kind in rng.shuffle(CHANGES)[:k]:
        if kind in ("edit_source", "touch_source"):
            cand = [p for p in srcs if p not in used]
            if not cand:
                continue
            p = rng.pick(cand)
            used.add(p)
            if kind == "edit_source":
                g.files[p] = g.files[p] + b"// edited\n"
                g.mtimes[p] = OLD - 100
            else:
                g.mtimes[p] = T0 + 600
            labels.append("%s %s" % (kind, p))
            continue
        cand = [n for n in built if n not in used]
        if not cand:
            continue
        n = rng.pick(cand)
        used.add(n)
        e = state[n]
        if kind == "delete_output":
            del g.files[n]
        elif kind == "edit_output":
            g.files[n] = g.files[n] + b"hand edit\n"
        elif kind == "failed":
            e["ok"] = False
            e["output"] = None
        elif kind == "command":
            e["command"] = cmd_hash(g.targets[n]["cmds"] + ["old step"])
        elif kind == "prereqs":
            if e["inputs"] and rng.next() < 0.5:
                del e["inputs"][sorted(e["inputs"])[0]]
            else:
                e["inputs"]["inc/removed.h"] = sha(b"gone")
        elif kind == "forget":
            del state[n]
        elif kind == "edit_header_oo":
            # a target used only as an order-only prerequisite: its rebuild must not spread
            e["command"] = cmd_hash(["older"])
        elif kind == "edit_target_file":
            g.mtimes[n] = T0 + 900
        labels.append("%s %s" % (kind, n))
    return labels


def state_doc(state):
    return {"version": 1, "targets": state}


def workspace(g, buildfile, state):
    """path -> (bytes, mtime) of a case folder."""
    files = {p: (b, g.mtimes.get(p, OLD)) for p, b in g.files.items()}
    files["Buildfile"] = (buildfile.encode(), OLD)
    if state is not None:
        files["state.json"] = (json.dumps(state_doc(state), indent=1, sort_keys=True).encode(), T0 + 1)
    return files


# ------------------------------------------------------------------ case families

def case_order(rng):
    """Explicit rules only, a wide DAG, mostly new targets; goals from the command line or default."""
    g = build_graph(rng, n_src=rng.int(5, 8), n_obj=rng.int(4, 7), n_top=rng.int(4, 7), patterns=False,
                    use_vars=False, extras=False, sub_stems=False)
    names, _ = closure(g, ["all"])
    state = {}
    if rng.next() < 0.5:
        state = previous_state(g, names, rng)
        plant_changes(g, state, rng, 3, names)
    else:
        for p in g.files:
            g.mtimes[p] = OLD
    goals = [] if rng.next() < 0.5 else rng.shuffle([n for n in g.targets if n.startswith("out/")])[:2]
    bf = render(g, rng)
    return g, bf, state, goals


def case_variables(rng):
    g = build_graph(rng, n_src=rng.int(4, 6), n_obj=rng.int(3, 5), n_top=rng.int(2, 4), patterns=rng.next() < 0.5,
                    use_vars=True, extras=False)
    for p in g.files:
        g.mtimes[p] = OLD
    # a rule line using a variable at read time: a header that changes after the rules
    hv = "HDR_" + g.vs.names["TOOL"][-1:]
    inc = sorted(p for p in g.files if p.startswith("inc/"))
    top = rng.pick([n for n in g.targets if n.startswith("out/")])
    g.head = list(g.head) + ["%s = %s" % (hv, inc[0])]
    g.tail = list(g.tail) + ["%s = %s" % (hv, inc[1])]
    t = g.targets[top]
    if inc[0] not in t["pre"]:
        t["pre"].append(inc[0])
    extra = "%s: $(%s)" % (top, hv)
    # an explicit prerequisite-only rule appends to the target's list
    g.items.append((top + "+", extra + "\n"))
    g.finish(g.vs.fin)
    return g, render(g, rng), {}, []


def case_patterns(rng):
    g = build_graph(rng, n_src=rng.int(5, 7), n_obj=rng.int(4, 6), n_top=rng.int(2, 4), patterns=True,
                    use_vars=rng.next() < 0.5)
    for p in g.files:
        g.mtimes[p] = OLD
    head_items = []
    if rng.next() < 0.4:
        # a family before the object family makes every object need gen/STEM.i, whose own
        # family needs the object back: a cycle through pattern rules only
        head_items = ["obj/%.o: src/%.c gen/%.i\n\tcc -c $< -o $@\n", "gen/%.i: obj/%.o\n\tcpp $< > $@\n"]
        for n, t in list(g.targets.items()):
            if n.startswith("obj/") and t["stem"]:
                gi = "gen/%s.i" % t["stem"]
                t["pre"] = ["src/%s.c" % t["stem"], gi]
                g.add(gi, [n], [], [[("lit", "cpp "), ("auto", "<"), ("lit", " > "), ("auto", "@")]], stem=t["stem"])
        g.finish(g.vs.fin if g.vs else {})
    state = {}
    if rng.next() < 0.4 and not head_items:
        names, _ = closure(g, ["all"])
        state = previous_state(g, names, rng)
        plant_changes(g, state, rng, 2, names)
    bf = render(g, rng, head_items=head_items)
    return g, bf, state, []


def case_dirty(rng):
    g = build_graph(rng, n_src=rng.int(5, 7), n_obj=rng.int(4, 6), n_top=rng.int(4, 6), patterns=rng.next() < 0.6,
                    use_vars=rng.next() < 0.5)
    # a phony step with commands as a normal prerequisite: runs every time, dirties nobody
    stamp = "version-stamp"
    g.add(stamp, [], [], [[("lit", "date > /dev/null")]], phony=True)
    g.phony_names.append(stamp)
    g.items.append((stamp, "%s:\n\tdate > /dev/null\n" % stamp))
    top = rng.pick([n for n in g.targets if n.startswith("out/")])
    g.targets[top]["pre"].append(stamp)
    g.items.append((top + "+", "%s: %s\n" % (top, stamp)))
    g.finish(g.vs.fin if g.vs else {})
    names, _ = closure(g, ["all"])
    state = previous_state(g, names, rng)
    plant_changes(g, state, rng, rng.int(3, 6), names)
    # an order-only target that is dirty: its dependents must stay clean
    oo_users = [n for n in names if len(g.targets[n]["oo"]) > 1 and n in state]
    if oo_users:
        u = rng.pick(oo_users)
        dep = [x for x in g.targets[u]["oo"] if x != "dirs"][0]
        if dep in state:
            state[dep]["command"] = cmd_hash(["stale"])
    return g, render(g, rng), state, []


def case_build(rng):
    frng = rng.fork("fails")
    seen = {"obj": 0, "out": 0}

    def fail_fn(name):
        kind = name[:3]
        seen[kind] += 1
        if kind == "obj":
            return "exit" if seen[kind] == 2 else None
        if frng.next() < 0.3:
            return "exit" if frng.next() < 0.6 else "nofile"
        return None

    g = build_graph(rng, n_src=rng.int(4, 6), n_obj=rng.int(3, 4), n_top=rng.int(4, 6), patterns=False,
                    use_vars=rng.next() < 0.5, runnable=True, fail_fn=fail_fn)
    names, _ = closure(g, ["all"])
    state = {}
    if rng.next() < 0.5:
        state = previous_state(g, names, rng)
        plant_changes(g, state, rng, 3, names)
        for n in names:
            t = g.targets[n]
            if n in state and any(c == "exit 3" or c.startswith("rm -f ") for c in t["cmds"]):
                state[n]["command"] = cmd_hash(["before"])
    else:
        for p in g.files:
            g.mtimes[p] = OLD
    keep_going = rng.next() < 0.75
    return g, render(g, rng), state, [], keep_going


def case_audit(rng):
    g = build_graph(rng, n_src=rng.int(5, 7), n_obj=rng.int(4, 6), n_top=rng.int(4, 6), patterns=rng.next() < 0.5,
                    use_vars=rng.next() < 0.5)
    # a target outside the goal closure
    extra = "out/extra-%s.bin" % rng.pick(WORDS)
    g.add(extra, [sorted(g.files)[0]], [], [[("lit", "pack "), ("auto", "<"), ("lit", " -o "), ("auto", "@")]])
    g.items.append((extra, "%s: %s\n\tpack $< -o $@\n" % (extra, sorted(g.files)[0])))
    g.finish(g.vs.fin if g.vs else {})
    names, _ = closure(g, ["all"])
    state = previous_state(g, names, rng)
    plant_changes(g, state, rng, rng.int(3, 5), names)
    keep_going = rng.next() < 0.5
    order, rs = reasons(g, ["all"], g.files, state)
    dirty = [n for n in order if rs[n] != "up_to_date"]
    clean = [n for n in order if rs[n] == "up_to_date" and not g.targets[n]["phony"]]
    fail_pick = [n for n in dirty if not g.targets[n]["phony"]]
    failed_log = set(rng.shuffle(fail_pick[:max(1, len(fail_pick) // 2)])[:rng.int(1, 2)]) if fail_pick else set()
    # the recorded tool: runs the dirty targets, forgets some, adds some clean ones, ignores failures
    ran = []
    for n in order:
        if n in dirty and rng.next() < 0.8:
            ran.append(n)
        elif n in clean and rng.next() < 0.25:
            ran.append(n)
    if rng.next() < 0.5:
        ran.append(extra)
    failed_log &= set(ran)
    lines = ["# minibuild log", "# goals: all", "# keep_going: %s" % ("yes" if keep_going else "no")]
    for n in ran:
        lines += ["run %s" % n, "%s %s" % ("fail" if n in failed_log else "ok", n)]
    log = "\n".join(lines) + "\n"
    rows = audit_rows(g, ["all"], g.files, state, keep_going, ran, failed_log)
    return g, render(g, rng), state, log, rows
