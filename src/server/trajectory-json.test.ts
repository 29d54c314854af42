import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bufferReader } from "./steps-scan.js";
import { planTrajectoryJson, trajectoryJsonParts } from "./trajectory-json.js";
import { loadTrajectory } from "./trial-files.js";

const dir = mkdtempSync(join(tmpdir(), "longhaul-traj-json-"));
mkdirSync(join(dir, "agent"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the JSON route answered when it parsed the whole file: the reference. */
function parsedWhole(bytes: Buffer): { ok: true; json: string } | { ok: false; reason: string } {
  writeFileSync(join(dir, "agent", "trajectory.json"), bytes);
  const t = loadTrajectory(dir);
  if (t.state === "missing") throw new Error("missing");
  return t.state === "ok" ? { ok: true, json: JSON.stringify(t.value) } : { ok: false, reason: t.reason };
}

/** The same file through the batches, with `batch` bytes of steps at a time. */
async function streamed(bytes: Buffer, batch: number, chunk: number) {
  const read = bufferReader(bytes);
  const plan = await planTrajectoryJson(read, bytes.length, batch, chunk);
  if (plan.state !== "ok") return plan.state === "invalid" ? { ok: false, reason: plan.reason } : plan;
  // Small batches must take the batched way for any steps at all (else this tests nothing).
  const cut = plan.value.whole === null;
  if (batch === 1 && !cut && !bytes.toString().includes('"steps":[]')) throw new Error("steps not cut");
  return { ok: true, json: [...trajectoryJsonParts(plan.value, read)].join("") };
}

/** Batch sizes: one step per batch, a few, and everything parsed with the rest of the file. */
const BATCHES = [1, 40, 300, 1024 * 1024];
const CHUNKS = [3, 64 * 1024];

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const ALPHABET = [
  "a",
  " ",
  "é",
  "中",
  "😀",
  "\n",
  "\t",
  '"',
  "\\",
  "/",
  "\u0000",
  "\u2028",
  "\ud800",
  "]",
  "}",
  ",",
  "<",
];

function text(rnd: () => number, max: number): string {
  let s = "";
  for (let n = Math.floor(rnd() * max); n > 0; n--) s += ALPHABET[Math.floor(rnd() * ALPHABET.length)];
  return s;
}

function randomStep(rnd: () => number, id: number): Record<string, unknown> {
  const step: Record<string, unknown> = { source: rnd() < 0.5 ? "agent" : "user", step_id: id };
  if (rnd() < 0.8) step.message = text(rnd, 30);
  if (rnd() < 0.3) step.extra = { ignored: [1, 2, text(rnd, 5)] };
  if (rnd() < 0.4) {
    step.tool_calls = [
      {
        function_name: "run",
        tool_call_id: `c${id}`,
        arguments: { cmd: text(rnd, 20), n: [1.5, -0, 1e21, null, true] },
      },
    ];
    step.observation = { results: [{ source_call_id: `c${id}`, content: text(rnd, 40), more: 1 }] };
  }
  if (rnd() < 0.3) step.metrics = { prompt_tokens: id * 10, cost_usd: 0.001 * id, other: "x" };
  if (rnd() < 0.2) step.timestamp = "2026-12-06T00:00:00Z";
  return step;
}

function randomTrajectory(seed: number, steps: number): string {
  const rnd = random(seed);
  const t: Record<string, unknown> = {};
  if (rnd() < 0.5) t.final_metrics = { total: 3, nested: { é: [text(rnd, 5)] } };
  t.session_id = text(rnd, 8);
  t.steps = Array.from({ length: steps }, (_, i) => randomStep(rnd, i + 1));
  if (rnd() < 0.7) t.agent = { version: "1", name: text(rnd, 6), model_name: "m", unknown: 1 };
  t.schema_version = "ATIF-v1.4";
  return JSON.stringify(t, null, rnd() < 0.5 ? 2 : undefined);
}

async function expectSame(source: string | Buffer, label: string, refused = false): Promise<void> {
  const bytes = typeof source === "string" ? Buffer.from(source) : source;
  const want = parsedWhole(bytes);
  expect(want.ok, label).toBe(!refused);
  for (const batch of BATCHES) {
    for (const chunk of CHUNKS) {
      const got = await streamed(bytes, batch, chunk);
      if (want.ok) expect(got, `${label}, batch ${batch}, chunk ${chunk}`).toEqual(want);
      else expect(got, `${label}, batch ${batch}, chunk ${chunk}`).toMatchObject({ ok: false });
    }
  }
}

describe("the whole trajectory as JSON, in batches", () => {
  it("writes byte for byte what parsing the whole file wrote", async () => {
    for (let seed = 1; seed <= 12; seed++)
      await expectSame(randomTrajectory(seed, 1 + seed * 3), `seed ${seed}`);
    const one = '{"step_id":1,"source":"agent"}';
    const texts = [
      '{"steps":[]}',
      `{"steps":[${one}]}`,
      // Escapes and numbers as written, not as JSON.stringify writes them; whitespace everywhere.
      ` {\n "steps" : [ {"step_id":1.0,"source":"\\u0061gent","message":"\\ud83d\\ude00 \\/ \\u00e9"} ,\n\t{"step_id":2e0,"source":"user"} ] } `,
      // Keys given twice: the last value counts, for a step's field, a step list and the agent.
      `{"steps":[${one},${one}],"agent":{"name":"a"},"steps":[{"step_id":3,"source":"x","source":"y"}],"agent":{"name":"b"}}`,
      `{"steps":[{"step_id":3,"source":"x"}],"steps":[${one},${one},${one}]}`,
      `{"ste\\u0070s":[${one}],"steps":[${one}, ${one}],"__proto__":{"a":1},"final_metrics":{"__proto__":[1]}}`,
      `{"final_metrics":{"steps":[]},"steps":[{"step_id":1,"source":"a","tool_calls":[{"function_name":"f","arguments":{"__proto__":{"x":"]"}}}]}]}`,
    ];
    for (const t of texts) await expectSame(t, t);
  });

  it("decodes bytes that are not UTF-8 as parsing the whole file did", async () => {
    const bad = Buffer.concat([
      Buffer.from('{"steps":[{"step_id":1,"source":"a","message":"'),
      Buffer.from([0xe2, 0x82, 0xff, 0xc3]),
      Buffer.from('"},{"step_id":2,"source":"\xe9"}]}', "latin1"),
    ]);
    await expectSame(bad, "invalid UTF-8");
  });

  it("refuses what parsing the whole file refused, wherever it is", async () => {
    const good = (i: number) => `{"step_id":${i},"source":"agent","message":"m${i}"}`;
    const around = (bad: string) =>
      `{"agent":{"name":"a"},"steps":[${[1, 2, 3, 4].map(good).join(",")},${bad},${[6, 7, 8].map(good).join(",")}]}`;
    const damaged = [
      // Inside a step the walker follows only strings and brackets; each of these gets past it.
      around('{"step_id":5.,"source":"agent"}'),
      around('{"step_id":5 "source":"agent"}'),
      around('{"step_id":5,"source":"a\u0001gent"}'),
      around('{"step_id":05,"source":"agent"}'),
      around("tru"),
      // Outside the steps too, and in a steps array that a later one replaces.
      `{"x":[1 2],"steps":[${good(1)}]}`,
      `{"x\n":1,"steps":[${good(1)}]}`,
      `{"steps":[${good(1)},{"a":01}],"steps":[${good(1)}]}`,
    ];
    for (const t of damaged) await expectSame(t, t, true);
    // Not the viewer's shape: the same reason as parsing whole, the first in its order.
    const shape = [
      around('{"step_id":"5","source":"agent"}'),
      around('{"step_id":5}'),
      `{"agent":{"name":1},"steps":[${good(1)},{"step_id":2}]}`,
      `{"steps":[${good(1)},{"step_id":2}],"final_metrics":5}`,
      `{"steps":[${good(1)}],"final_metrics":5}`,
      `{"steps":[${good(1)}],"session_id":5}`,
    ];
    for (const t of shape) {
      const want = parsedWhole(Buffer.from(t));
      expect(want.ok).toBe(false);
      for (const batch of BATCHES)
        expect(await streamed(Buffer.from(t), batch, 7), `${batch}: ${t}`).toEqual(want);
    }
  });

  it("throws while writing a batch that no longer parses, instead of ending the document early", async () => {
    const t = JSON.stringify({ steps: Array.from({ length: 20 }, (_, i) => ({ step_id: i, source: "a" })) });
    const bytes = Buffer.from(t);
    const plan = await planTrajectoryJson(bufferReader(bytes), bytes.length, 64);
    if (plan.state !== "ok") throw new Error("not ok");
    expect(plan.value.batches.length).toBeGreaterThan(3);
    // The file changed after it was checked: a step in the middle is cut.
    const changed = Buffer.from(t.replace('{"step_id":10,"source":"a"}', '{"step_id":10,"source":"a" '));
    const parts = trajectoryJsonParts(plan.value, bufferReader(changed));
    const got: string[] = [];
    expect(() => {
      for (const p of parts) got.push(p);
    }).toThrow(/JSON/);
    expect(got.join("")).not.toMatch(/\]\}$/);
  });
});
