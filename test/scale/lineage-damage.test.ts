import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { InputError, UserError } from "../../src/core/errors.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { type ScaleOptions, scaleTask } from "../../src/scale/lineage/scale.js";
import { LINEAGE_SETTINGS } from "../../src/scale/lineage/settings.js";
import { LINEAGE_DB, LINEAGE_JSONL, readLineage } from "../../src/scale/lineage/store.js";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";

// A damaged lineage folder is refused with one line naming the file (exit 2), before anything in
// it changes; a resume never deletes a child it cannot tell was left by the interrupted run.

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");
const CHILD = "ledger-report-b1-d1";

function options(out: string, over: Partial<ScaleOptions> = {}): ScaleOptions {
  return {
    taskDir: LEDGER,
    outDir: out,
    depth: 1,
    children: 1,
    library: "full",
    mode: "recursive",
    seed: 5,
    provider: getSandboxProvider("bwrap"),
    trials: false,
    ...over,
  };
}

let grown = "";

/** A copy of the one-child lineage grown once for this file, at the same folder depth as `grown`. */
function copy(name: string): string {
  const out = join(tempDir(`res-damage-${name}`), "out");
  cpSync(grown, out, { recursive: true });
  return out;
}

function sqliteCount(out: string): number {
  const db = new BetterSqlite3(join(out, LINEAGE_DB), { readonly: true });
  try {
    const row: unknown = db.prepare("SELECT COUNT(*) AS n FROM nodes").get();
    return typeof row === "object" && row !== null && "n" in row ? Number(row.n) : -1;
  } finally {
    db.close();
  }
}

/** The error a call throws (or the rejection of its promise). */
async function thrown(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  throw new Error("expected an error");
}

async function expectRefused(f: () => unknown, message: RegExp): Promise<void> {
  const e = await thrown(f);
  expect(e).toBeInstanceOf(UserError);
  const text = e instanceof Error ? e.message : "";
  expect(text).toMatch(message);
  expect(text).not.toContain("\n");
}

beforeAll(async () => {
  grown = join(tempDir("res-damage-ref"), "out");
  await scaleTask(options(grown));
}, 120_000);

describe("scale tree and scale --resume on a damaged lineage folder", () => {
  it("lineage.jsonl a folder: exit 2 naming it", async () => {
    const out = copy("jsonl-dir");
    rmSync(join(out, LINEAGE_JSONL));
    mkdirSync(join(out, LINEAGE_JSONL));
    const file = join(out, LINEAGE_JSONL);
    await expectRefused(() => readLineage(out), new RegExp(`^${file}: is a folder`));
    await expectRefused(() => scaleTask(options(out, { resume: true })), new RegExp(`^${file}: is a folder`));
    expect((await cli(["scale", "tree", out])).code).toBe(2);
    expect((await cli(["scale", "--resume", "--out", out])).code).toBe(2);
  });

  it("lineage.sqlite garbage: exit 2 naming it, and once removed a resume rebuilds it", async () => {
    const out = copy("sqlite");
    writeFileSync(
      join(out, LINEAGE_DB),
      Buffer.from([0, 1, 2, 3, 255, 254, 7, 9].concat(Array(600).fill(42))),
    );
    const before = readFileSync(join(out, LINEAGE_JSONL));
    await expectRefused(
      () => scaleTask(options(out, { resume: true })),
      new RegExp(
        `^${join(out, LINEAGE_DB)}: not a SQLite database \\(remove it: it is rebuilt from lineage\\.jsonl\\)$`,
      ),
    );
    expect((await cli(["scale", "--resume", "--out", out])).code).toBe(2);
    expect(readFileSync(join(out, LINEAGE_JSONL))).toEqual(before);
    rmSync(join(out, LINEAGE_DB));
    const r = await scaleTask(options(out, { resume: true }));
    expect(r.grown).toBe(0);
    expect(sqliteCount(out)).toBe(2);
  });

  it("an empty lineage.jsonl has no root: refused by both, and the approved child is kept", async () => {
    const out = copy("empty");
    writeFileSync(join(out, LINEAGE_JSONL), "");
    const noRoot = new RegExp(`^${join(out, LINEAGE_JSONL)}: not a lineage: it records no root node`);
    await expectRefused(() => readLineage(out), noRoot);
    await expectRefused(() => scaleTask(options(out, { resume: true })), noRoot);
    expect((await cli(["scale", "tree", out])).code).toBe(2);
    expect((await cli(["scale", "--resume", "--out", out])).code).toBe(2);
    expect(existsSync(join(out, CHILD, "res.json"))).toBe(true);
  });

  it("a child folder the lineage lost is refused, not deleted; one marked as the killed run's is removed", async () => {
    const out = copy("lost");
    const [rootLine = ""] = readFileSync(join(out, LINEAGE_JSONL), "utf8").split("\n");
    writeFileSync(join(out, LINEAGE_JSONL), `${rootLine}\n`);
    const before = readFileSync(join(out, CHILD, "instruction.md"), "utf8");
    await expectRefused(
      () => scaleTask(options(out, { resume: true })),
      new RegExp(
        `^${join(out, CHILD)}: a folder lineage\\.jsonl does not record, where this run would grow ${CHILD}; it is kept`,
      ),
    );
    expect(readFileSync(join(out, CHILD, "instruction.md"), "utf8")).toBe(before);
    expect(readFileSync(join(out, LINEAGE_JSONL), "utf8")).toBe(`${rootLine}\n`);
    // What a kill between the rename into place and the record leaves: the folder and its marker.
    writeFileSync(join(out, `.unrecorded-${CHILD}`), "");
    writeFileSync(join(out, CHILD, "stray.txt"), "from the killed run");
    const lines: string[] = [];
    const r = await scaleTask(options(out, { resume: true, log: (l) => lines.push(l) }));
    expect(r.grown).toBe(1);
    expect(lines.join("\n")).toContain(
      `${join(out, CHILD)}: left by the interrupted run but not in the lineage`,
    );
    expect(existsSync(join(out, CHILD, "stray.txt"))).toBe(false);
    expect(existsSync(join(out, `.unrecorded-${CHILD}`))).toBe(false);
  }, 120_000);

  it("a node of the wrong type, or without an id: one line naming the line and the field", async () => {
    const out = copy("field");
    const file = join(out, LINEAGE_JSONL);
    const [root = "", child = ""] = readFileSync(file, "utf8").split("\n");
    const node = JSON.parse(child) as Record<string, unknown>;
    for (const [bad, field] of [
      [{ ...node, depth: "one" }, "depth"],
      [{ ...node, id: undefined }, "id"],
    ] as const) {
      writeFileSync(file, `${root}\n${JSON.stringify(bad)}\n`);
      const e = await thrown(() => readLineage(out));
      expect(e).toBeInstanceOf(InputError);
      expect(e instanceof Error ? e.message : "").toMatch(
        new RegExp(`^${file}:2: not a lineage node: field ${field}: [^\\n]+$`),
      );
      expect((await cli(["scale", "tree", out])).code).toBe(2);
    }
    writeFileSync(file, `${root}\n{"id": \n`);
    await expectRefused(() => readLineage(out), new RegExp(`^${file}:2: .*not a lineage node: invalid JSON`));
  });

  it("a lineage copied away from its root: exit 2 naming the res.json field and the path it looked for", async () => {
    // One level deeper: the children's relative paths to the root no longer resolve.
    const out = join(tempDir("res-damage-moved"), "deeper", "out");
    cpSync(grown, out, { recursive: true });
    const res = join(out, CHILD, "res.json");
    await expectRefused(
      () => scaleTask(options(out, { depth: 2, resume: true })),
      new RegExp(
        `^${res}: field "parent\\.dir": \\.\\./[^ ]* is /[^ ]*ledger-report, which is no task folder`,
      ),
    );
    expect((await cli(["scale", "--resume", "--out", out, "--depth", "2"])).code).toBe(2);
    expect(readLineage(out)).toHaveLength(2);
  });

  it("a root in scale.json that is no task folder: exit 2 naming scale.json and the field", async () => {
    const out = copy("root");
    const file = join(out, LINEAGE_SETTINGS);
    const settings = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...settings, root: "/nonexistent/task" }));
    await expectRefused(
      () => scaleTask(options(out, { taskDir: "/nonexistent/task", resume: true })),
      new RegExp(`^${file}: field "root": /nonexistent/task: no such task folder`),
    );
    expect((await cli(["scale", "--resume", "--out", out])).code).toBe(2);
  });
});

describe("scale --resume: a last line of lineage.jsonl cut short", () => {
  const GARBAGE = Buffer.from([0x00, 0xff, 0xfe, 0xc3, 0x28, 0x7b, 0x22, 0x69, 0x64]);

  it("is kept byte for byte, never over an earlier one, and cut at its exact offset", async () => {
    const out = copy("torn");
    const file = join(out, LINEAGE_JSONL);
    const whole = readFileSync(file);
    appendFileSync(file, GARBAGE);
    const lines: string[] = [];
    await scaleTask(options(out, { resume: true, log: (l) => lines.push(l) }));
    expect(readFileSync(file)).toEqual(whole);
    expect(readFileSync(`${file}.torn`)).toEqual(GARBAGE);
    expect(lines.join("\n")).toContain("kept in lineage.jsonl.torn)");
    appendFileSync(file, '{"id":"x"');
    await scaleTask(options(out, { resume: true, log: (l) => lines.push(l) }));
    expect(readFileSync(file)).toEqual(whole);
    expect(readFileSync(`${file}.torn`)).toEqual(GARBAGE);
    expect(readFileSync(`${file}.torn.1`, "utf8")).toBe('{"id":"x"');
  });

  it("a bad complete line is refused (file:line) before anything is changed", async () => {
    const out = copy("torn-mid");
    const file = join(out, LINEAGE_JSONL);
    const whole = readFileSync(file);
    const damaged = Buffer.concat([whole, GARBAGE, Buffer.from("\n"), whole, Buffer.from('{"id"')]);
    writeFileSync(file, damaged);
    await expectRefused(
      () => scaleTask(options(out, { resume: true })),
      new RegExp(`^${file}:3: not a lineage node: not UTF-8 text$`),
    );
    expect(readFileSync(file)).toEqual(damaged);
    expect(existsSync(`${file}.torn`)).toBe(false);
  });
});
