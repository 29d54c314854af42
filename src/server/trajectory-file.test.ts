import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bufferReader } from "./steps-scan.js";
import { edgesOf, edgesOfWhole, FULL_PARSE_BYTES, loadTrajectoryEdges } from "./trajectory-file.js";
import { MAX_TRAJECTORY_DEPTH, nestsDeeperThan, viewTrajectorySchema } from "./trial-files.js";

const EDGE = 3;

/** What parsing the whole text gives, as edges. */
function whole(text: string, from: number | null = null) {
  const {
    checked_all: _c,
    bytes: _b,
    ...rest
  } = edgesOfWhole(viewTrajectorySchema.parse(JSON.parse(text)), EDGE, 0, from);
  return rest;
}

/** Chunk sizes the walk is tried with: steps, strings and keys cut at every place. */
const CHUNKS = [1, 2, 7, 64 * 1024];

function edgesOfText(text: string, chunk = 64 * 1024, from: number | null = null) {
  const b = Buffer.from(text);
  return edgesOf(bufferReader(b), b.length, EDGE, chunk, from);
}

function scanned(text: string, chunk?: number, from: number | null = null) {
  const t = edgesOfText(text, chunk, from);
  if (t.state !== "ok") throw new Error(`not ok: ${JSON.stringify(t)}`);
  const { checked_all: _c, bytes: _b, ...rest } = t.value;
  return rest;
}

function step(id: number, extra: Record<string, unknown> = {}) {
  return { step_id: id, source: "agent", message: `m${id}`, ...extra };
}

function nested(levels: number): string {
  return `${"[".repeat(levels)}${"]".repeat(levels)}`;
}

describe("trajectory edges of a large file", () => {
  it("reads the same steps as parsing the whole file", () => {
    const tricky = step(2, {
      message: 'brackets ] } [ { , : and quotes \\" \\\\ "end" \u00e9\u{1f600}',
      tool_calls: [{ function_name: "f", arguments: { a: [1, [2, { b: "]" }]], c: null, d: true } }],
      observation: { results: [{ content: "x\\" }] },
    });
    const texts = [
      JSON.stringify({ steps: [] }),
      JSON.stringify({ steps: [step(1)] }),
      JSON.stringify({ agent: { name: "a", version: "1" }, steps: [step(1), tricky, step(3)] }),
      JSON.stringify({ steps: Array.from({ length: 4 }, (_, i) => step(i + 1)), agent: { name: "after" } }),
      JSON.stringify({
        steps: Array.from({ length: 11 }, (_, i) => step(i + 1)),
        final_metrics: { x: [1, 2] },
      }),
      JSON.stringify({ agent: { name: "a" }, steps: [tricky, step(5), step(6), step(7), tricky] }, null, 2),
      `\n { "ste\\u0070s" : [ ${JSON.stringify(step(1))} ,\n${JSON.stringify(step(2))} ] , "x": 12.5e3 , "y": "s" } \n`,
      // A key given twice counts its last value, as JSON.parse does.
      `{"steps":[${JSON.stringify(step(1))}],"agent":{"name":"a"},"steps":[${JSON.stringify(step(9))}],"agent":{"name":"b"}}`,
    ];
    for (const text of texts) {
      for (const chunk of CHUNKS) expect(scanned(text, chunk), `${chunk}: ${text}`).toEqual(whole(text));
      // A window of steps (`?steps_from=`), anywhere, past the end included.
      for (const from of [0, 1, 2, 4, 9, 50]) {
        expect(scanned(text, 7, from), `from ${from}: ${text}`).toEqual(whole(text, from));
      }
    }
  });

  it("counts every step but keeps only the first and last ones", () => {
    const text = JSON.stringify({ steps: Array.from({ length: 1000 }, (_, i) => step(i + 1)) });
    const t = scanned(text);
    expect(t.total).toBe(1000);
    expect(t.first.map((s) => s.step_id)).toEqual([1, 2, 3]);
    expect(t.last.map((s) => s.step_id)).toEqual([998, 999, 1000]);
  });

  it("refuses what is not a trajectory, saying why", () => {
    const one = JSON.stringify(step(1));
    const cases: [string, string][] = [
      ["", "not JSON: unexpected end of the file"],
      ["[]", "not a JSON object"],
      ["{}", "steps: expected an array, found none"],
      ['{"steps":{}}', "steps: expected an array"],
      [`{"steps":[${one}`, "not JSON: unexpected end of the file"],
      [`{"steps":[${one}]`, "not JSON: unexpected end of the file"],
      [`{"steps":[${one}] 5}`, "not JSON: expected ',' or '}' after a value"],
      [`{"steps":[${one}]}}`, "not JSON: text after the end of the trajectory"],
      [`{"steps":[${one},]}`, "not JSON: a step is missing"],
      [`{"steps":[${one} ${one}]}`, "not JSON: expected ',' or ']' after a step"],
      [`{"steps":[{"a":[}]}`, "not JSON: mismatched brackets"],
      [`{"steps":[{"a":"]}`, "not JSON: unexpected end of the file"],
      [`{"steps" [${one}]}`, "not JSON: expected ':' after a key"],
      [`{steps:[${one}]}`, "not JSON: expected a key in the trajectory object"],
      [`{"steps":[${one}], "x": }`, "not JSON: a value is missing"],
    ];
    for (const [text, reason] of cases) {
      for (const chunk of CHUNKS)
        expect(edgesOfText(text, chunk), `${chunk}: ${text}`).toEqual({ state: "invalid", reason });
    }
  });

  it("checks the steps it shows, and only counts the others", () => {
    const steps: unknown[] = Array.from({ length: 10 }, (_, i) => step(i + 1));
    const bad = { step_id: 0, message: "no source" };
    const at = (i: number) => JSON.stringify({ steps: steps.map((s, k) => (k === i ? bad : s)) });
    expect(edgesOfText(at(1))).toMatchObject({
      state: "invalid",
      reason: expect.stringMatching(/^steps\.1\.source: /),
    });
    expect(edgesOfText(at(8))).toMatchObject({
      state: "invalid",
      reason: expect.stringMatching(/^steps\.8\.source: /),
    });
    expect(edgesOfText(at(5))).toMatchObject({ state: "ok", value: { total: 10, checked_all: false } });
    const badJson = `{"steps":[${JSON.stringify(step(1))},{"step_id":01}]}`;
    expect(edgesOfText(badJson)).toMatchObject({
      state: "invalid",
      reason: expect.stringMatching(/^not JSON: /),
    });
  });

  it("refuses nesting past the limit exactly where parsing the whole file does", () => {
    // Levels: the object, steps, a step, tool_calls, a call, then `arguments`.
    for (const args of [MAX_TRAJECTORY_DEPTH - 5, MAX_TRAJECTORY_DEPTH - 4]) {
      const text = `{"steps":[{"step_id":1,"source":"agent","tool_calls":[{"function_name":"f","arguments":${nested(args)}}]}]}`;
      const tooDeep = nestsDeeperThan(JSON.parse(text), MAX_TRAJECTORY_DEPTH);
      expect(edgesOfText(text).state, `${args} levels`).toBe(tooDeep ? "invalid" : "ok");
    }
    const deep = `{"steps":[${nested(20_000)}]}`;
    expect(edgesOfText(deep)).toEqual({
      state: "invalid",
      reason: `nested deeper than ${MAX_TRAJECTORY_DEPTH} levels`,
    });
  });
});

describe("loadTrajectoryEdges", () => {
  const dir = mkdtempSync(join(tmpdir(), "longhaul-traj-edges-"));
  mkdirSync(join(dir, "agent"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function write(stepCount: number, pad: number): void {
    const steps = Array.from({ length: stepCount }, (_, i) => step(i + 1, { message: "x".repeat(pad) }));
    writeFileSync(join(dir, "agent", "trajectory.json"), JSON.stringify({ steps }));
  }

  it("parses a usual file whole and a large one only at its ends", () => {
    write(1000, 100);
    const small = loadTrajectoryEdges(dir, 100);
    expect(small).toMatchObject({ state: "ok", value: { total: 1000, checked_all: true } });
    const steps = Math.ceil(FULL_PARSE_BYTES / 1000) + 10;
    write(steps, 1000);
    const large = loadTrajectoryEdges(dir, 100);
    expect(large).toMatchObject({ state: "ok", value: { total: steps, checked_all: false } });
    if (large.state !== "ok") return;
    expect(large.value.first).toHaveLength(100);
    expect(large.value.last.map((s) => s.step_id)).toEqual(
      Array.from({ length: 100 }, (_, i) => steps - 99 + i),
    );
  });
});
