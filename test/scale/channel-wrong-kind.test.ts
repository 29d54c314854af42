import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { loadParent } from "../../src/scale/child/build-child.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { tempDir } from "../runner/helpers.js";

const LOAN = resolve(import.meta.dirname, "../../tasks/loan-schedule");
const CALL = 'code, _, err = run(["python3", TOOL, d, out], timeout=20)';

/**
 * detectProgram guesses whether a program's input is a file or a folder from the grader's text
 * (a folder input is named `d`). A grader that names its folder otherwise is guessed wrong by the
 * planner and by the verifier alike, so only the oracle trials (check d) can catch it: the channel
 * is built for a file, the reference solution's wrapper cannot read what the verifier presents,
 * and the candidate must be discarded rather than approved.
 */
describe("a wrong guess of a program's input kind", () => {
  it("is caught by the oracle trials: the candidate is discarded, never approved", async () => {
    const root = join(tempDir("res-wrong-kind"), "loan-renamed");
    cpSync(LOAN, root, { recursive: true });
    const grade = join(root, "tests/grade.py");
    const text = readFileSync(grade, "utf8");
    expect(text).toContain(CALL);
    writeFileSync(
      grade,
      text.replace(CALL, `src_dir = d\n    ${CALL.replace("TOOL, d,", "TOOL, src_dir,")}`),
    );
    expect((await loadParent(root)).program?.inputKind).toBe("file");
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
