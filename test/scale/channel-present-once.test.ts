import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { channelKitPath } from "../../src/scale/channel/steps.js";
import { tempDir } from "../runner/helpers.js";

const root = tempDir("res-present-once");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * The verifier kit's hook (present_call) on the same input several times in one process, as a
 * grader that runs two commands on one folder does: the steps run once, each call still gets a
 * copy of its own equal to what present() makes, and a change to the input (bytes or mode) is
 * presented afresh. Prints one JSON object.
 */
const SCRIPT = `
import hashlib, json, os, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import res_channel as c
work = sys.argv[2]
runs = []
gz = c.STEPS["gzip"]
c.STEPS["gzip"] = (lambda root, step: (runs.append(root), gz[0](root, step))[1], gz[1])
def tree(p):
    if os.path.isfile(p):
        return [[os.path.basename(p), oct(os.stat(p).st_mode), hashlib.sha256(open(p, "rb").read()).hexdigest()]]
    return [[r, oct(os.stat(os.path.join(p, r)).st_mode), hashlib.sha256(open(os.path.join(p, r), "rb").read()).hexdigest()] for r in c._files(p)]
src = os.path.join(work, "in")
os.makedirs(os.path.join(src, "sub"))
open(os.path.join(src, "a.csv"), "w").write("id,v\\n" + "".join("%d,%d\\n" % (i, i * i) for i in range(500)))
open(os.path.join(src, "sub", "b.bin"), "wb").write(bytes(range(256)) * 8)
os.chmod(os.path.join(src, "sub", "b.bin"), 0o750)
steps = [{"name": "gzip", "seed": 1, "params": {}}, {"name": "base64", "seed": 2, "params": {}}]
decl = {"program": "/app/p.py", "input_index": 2, "input_kind": "folder", "steps": steps}
argv = ["python3", "/app/p.py", src, os.path.join(work, "out.csv")]
out = {}
first = c.present_call(argv, decl)[0][2]
out["runs_first"] = len(runs)
second = c.present_call(argv, decl)[0][2]
out["runs_second"] = len(runs)
out["distinct_paths"] = first != second and not second.startswith(first)
out["same_tree"] = tree(first) == tree(second)
fresh = c.present(src, steps, os.path.join(work, "fresh"))
out["fresh_tree"] = tree(fresh) == tree(first)
# A kept copy is named as present() names its copy in an empty folder.
out["same_name"] = os.path.basename(first) == os.path.basename(second) == os.path.basename(fresh)
runs.clear()
# What a program does to its own copy stays there, whether that copy was made or kept.
want = tree(second)
for shown in (first, second):
    open(os.path.join(shown, c._files(shown)[0]), "wb").write(b"tampered")
third = c.present_call(argv, decl)[0][2]
out["untouched_by_program"] = tree(third) == want and len(runs) == 0
# New bytes: presented again, and restored to the new bytes.
open(os.path.join(src, "a.csv"), "a").write("500,250000\\n")
fourth = c.present_call(argv, decl)[0][2]
out["new_bytes_rerun"] = len(runs) > 0 and tree(fourth) != tree(second)
back = c.restore(fourth, steps, os.path.join(work, "back"))
out["new_bytes_restore"] = [[r, h] for r, _, h in tree(back)] == [[r, h] for r, _, h in tree(src)]
# Same bytes, another mode: presented again, since a file a step passes by keeps its mode
# (text-reencode leaves b.bin, which is not UTF-8, as it is).
keep = dict(decl, steps=[{"name": "text-reencode", "seed": 3, "params": {}}])
before = tree(c.present_call(argv, keep)[0][2])
os.chmod(os.path.join(src, "sub", "b.bin"), 0o700)
after = tree(c.present_call(argv, keep)[0][2])
out["new_mode_rerun"] = before != after and after == tree(c.present(src, keep["steps"], os.path.join(work, "m")))
# A single-file input: the file's name and bytes as present() makes them.
one = os.path.join(work, "one.csv")
open(one, "w").write("x\\n" * 100)
fdecl = dict(decl, input_kind="file")
fargv = ["python3", "/app/p.py", one, "o"]
runs.clear()
f1 = c.present_call(fargv, fdecl)[0][2]
f2 = c.present_call(fargv, fdecl)[0][2]
out["file_runs"] = len(runs)
ff = c.present(one, steps, os.path.join(work, "f"))
out["file_same"] = f1 != f2 and tree(f1) == tree(f2) == tree(ff)
out["file_same_name"] = [os.path.relpath(p, os.path.dirname(os.path.dirname(p))) for p in (f1, f2)] == [os.path.relpath(ff, os.path.join(work, "f"))] * 2
print(json.dumps(out))
`;

describe("the channel kit presents each distinct input once per verifier process", () => {
  it("runs the steps once, and every call still gets its own faithful copy", () => {
    const work = join(root, "case");
    const r = spawnSync("python3", ["-I", "-B", "-c", SCRIPT, channelKitPath(), work], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toEqual({
      runs_first: 1,
      runs_second: 1,
      distinct_paths: true,
      same_tree: true,
      fresh_tree: true,
      same_name: true,
      untouched_by_program: true,
      new_bytes_rerun: true,
      new_bytes_restore: true,
      new_mode_rerun: true,
      file_runs: 1,
      file_same: true,
      file_same_name: true,
    });
  });
});
