import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { loadParent } from "../../src/scale/child/build-child.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { tempDir } from "../runner/helpers.js";

const ORBIT = resolve(import.meta.dirname, "../../tasks/orbit-propagate");
const CALL = 'code, _, err = run(["python3", TOOL, p, o], timeout=30)';

/**
 * detectProgram guesses that a program's input is a folder from the grader's text (a folder
 * input is named `d`). A grader that names a file input `d` is guessed wrong by the planner and
 * by the verifier alike, so only the oracle trials (check d) can catch it: the channel is built
 * for a folder (its steps may need one), the reference solution's wrapper refuses the file the
 * verifier presents, and the candidate must be discarded rather than approved.
 */
describe("a wrong guess of a program's input kind", () => {
  it("is caught by the oracle trials: the candidate is discarded, never approved", async () => {
    const root = join(tempDir("res-wrong-kind"), "orbit-renamed");
    cpSync(ORBIT, root, { recursive: true });
    const grade = join(root, "tests/grade.py");
    const text = readFileSync(grade, "utf8");
    expect(text).toContain(CALL);
    writeFileSync(grade, text.replace(CALL, `d = p\n    ${CALL.replace("TOOL, p,", "TOOL, d,")}`));
    expect((await loadParent(root)).program?.inputKind).toBe("folder");
    const res = await scaleTask({
      taskDir: root,
      outDir: join(root, "..", "out"),
      depth: 1,
      children: 1,
      library: "basic",
      mode: "recursive",
      seed: 2,
      stepsPerLevel: 1,
      repairs: 0,
      provider: getSandboxProvider("bwrap"),
      trials: true,
    });
    const child = res.nodes[1];
    expect(child?.status).toBe("discarded");
    expect(child?.diagnostics.map((d) => d.code)).toContain("oracle-fails");
  }, 240_000);
});
