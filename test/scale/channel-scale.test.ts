import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ChannelProposer, channelDeclFor, channelPool } from "../../src/scale/channel/plan-channel.js";
import {
  BASIC_CHANNEL_STEPS,
  CHANNEL_STEPS,
  ONE_FILE_STEPS,
  STREAM_STEPS,
} from "../../src/scale/channel/steps.js";
import { readResJson } from "../../src/scale/child/res-json.js";
import { type LineageNode, readLineage } from "../../src/scale/lineage/store.js";
import type { ProposeRequest } from "../../src/scale/plan/proposer.js";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";

// A program task with a folder channel: heatwave-audit, the bundled task with the cheapest oracle
// trial (docs/benchmarks.md), in place of loan-schedule until 2026-12-06 (a folder channel too).
const ROOT = resolve(import.meta.dirname, "../../tasks/heatwave-audit");
const FOLDER = { program: "/app/loan.py", inputIndex: 2, inputKind: "folder" } as const;
const FILE = { program: "/app/propagate.py", inputIndex: 2, inputKind: "file" } as const;

function request(library: "basic" | "full", seed: number, steps = 2): ProposeRequest {
  return { tree: new Map(), resources: [], library, transforms: [], steps, seed };
}

describe("the channel planner", () => {
  it("gives the same plan for the same seed and another for another seed", async () => {
    const p = new ChannelProposer(FOLDER);
    expect(await p.propose(request("full", 5))).toEqual(await p.propose(request("full", 5)));
    const plans = [];
    for (const s of [1, 2, 3, 4, 5, 6]) plans.push(await p.propose(request("full", s)));
    const many = new Set(plans.map((pl) => JSON.stringify(pl?.steps)));
    expect(many.size).toBeGreaterThan(1);
  });

  it("keeps to the basic library with --library basic and to one-file steps for a file input", async () => {
    const names = async (input: typeof FOLDER | typeof FILE, lib: "basic" | "full"): Promise<Set<string>> => {
      const plans = [];
      for (let s = 0; s < 30; s++) plans.push(await new ChannelProposer(input).propose(request(lib, s)));
      return new Set(
        plans.flatMap((pl) => pl?.steps ?? []).map((st) => st.transform.replace(/^channel-/, "")),
      );
    };
    for (const n of await names(FOLDER, "basic")) expect(BASIC_CHANNEL_STEPS).toContain(n);
    for (const n of await names(FILE, "full")) expect(ONE_FILE_STEPS).toContain(n);
    for (const n of await names(FILE, "basic")) expect(["base64", "gzip"]).toContain(n);
    expect((await names(FOLDER, "full")).size).toBeGreaterThan(BASIC_CHANNEL_STEPS.length);
    expect(channelPool("full", "folder")).toEqual(CHANNEL_STEPS.filter((n) => !STREAM_STEPS.includes(n)));
    // An interactive program's stdin takes only the line steps; basic keeps one of them.
    expect(channelPool("full", "stream")).toEqual([...STREAM_STEPS]);
    expect(channelPool("basic", "stream")).toEqual(["line-base64"]);
  });

  it("a child's channel is its parent's steps followed by the new ones", async () => {
    const p = new ChannelProposer(FOLDER);
    const d1Plan = await p.propose(request("full", 1));
    const d2Plan = await p.propose(request("full", 2, 3));
    if (d1Plan === null || d2Plan === null) throw new Error("no plan");
    const d1 = channelDeclFor(null, FOLDER, d1Plan);
    const d2 = channelDeclFor(d1, FOLDER, d2Plan);
    expect(d1.steps).toHaveLength(2);
    expect(d2.steps).toHaveLength(5);
    expect(d2.steps.slice(0, 2)).toEqual(d1.steps);
  });

  it("repairs avoid the step names a rejected plan used", async () => {
    const p = new ChannelProposer(FOLDER);
    const previous = await p.propose(request("basic", 9, 1));
    if (previous === null) throw new Error("no plan");
    const fixed = await p.repair({ ...request("basic", 9, 1), previous, diagnostics: [], attempt: 1 });
    expect(fixed?.steps[0]?.transform).not.toBe(previous.steps[0]?.transform);
  });
});

describe("`longhaul scale` of a program task (heatwave-audit), depth 2, real trials", () => {
  const out = join(tempDir("res-program"), "out");
  let nodes: LineageNode[] = [];
  let code = -1;

  beforeAll(async () => {
    const r = await cli(["scale", ROOT, "--depth", "2", "--seed", "4", "--steps", "1", "--out", out]);
    code = r.code;
    nodes = readLineage(out);
  }, 240_000);

  it("approves two children whose channel grows with depth, every check passing", () => {
    expect(code).toBe(0);
    const kids = nodes.filter((n) => n.status !== "root");
    expect(kids.map((n) => [n.id, n.status])).toEqual([
      ["heatwave-audit-b1-d1", "approved"],
      ["heatwave-audit-b1-d2", "approved"],
    ]);
    for (const n of kids) expect(n.checks.every((c) => c.status === "pass")).toBe(true);
    const d1 = readResJson(join(out, "heatwave-audit-b1-d1"));
    const d2 = readResJson(join(out, "heatwave-audit-b1-d2"));
    expect(d2.channel?.steps.slice(0, d1.channel?.steps.length)).toEqual(d1.channel?.steps);
    expect(kids[1]?.channel).toEqual(d2.channel);
  });

  it("keeps the root's tests/ byte for byte and wraps the root's solution", () => {
    const child = join(out, "heatwave-audit-b1-d2");
    for (const f of ["grade.py", "lh.py", "test.sh", "rubric.toml"]) {
      expect(readFileSync(join(child, "tests", f))).toEqual(readFileSync(join(ROOT, "tests", f)));
    }
    expect(readFileSync(join(child, "solution/res/parent-solve.sh"))).toEqual(
      readFileSync(join(ROOT, "solution/solve.sh")),
    );
    expect(readFileSync(join(child, "instruction.md"), "utf8")).toMatch(/## Environment update \(depth 2\)/);
  });

  it("`scale verify` of a moved copy with --parent runs the root's bare solution from the parent", async () => {
    const moved = join(tempDir("res-moved"), "a", "b", "heatwave-audit-b1-d1");
    cpSync(join(out, "heatwave-audit-b1-d1"), moved, { recursive: true });
    const ok = await cli(["scale", "verify", moved, "--parent", ROOT, "--json"]);
    expect(ok.stderr).not.toMatch(/internal error/);
    expect(ok.code).toBe(0);
    // res.json naming another root is refused: the bare solution must be the verified root's.
    const file = join(moved, "res.json");
    const res = JSON.parse(readFileSync(file, "utf8")) as { root: { id: string } };
    res.root.id = "decoy";
    writeFileSync(file, `${JSON.stringify(res, null, 2)}\n`);
    const bad = await cli(["scale", "verify", moved, "--parent", ROOT, "--no-trials", "--json"]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("lineage-mismatch");
  }, 120_000);

  it("`scale verify` rejects a child whose task.toml was edited", async () => {
    const copy = join(tempDir("res-toml"), "heatwave-audit-b1-d1");
    cpSync(join(out, "heatwave-audit-b1-d1"), copy, { recursive: true });
    const file = join(copy, "task.toml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/timeout_sec = (\d+)/, "timeout_sec = 9$1"));
    const bad = await cli(["scale", "verify", copy, "--parent", ROOT, "--no-trials", "--json"]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("task.toml is not the parent's");
  });

  it("refuses --out naming a file, in one line, before any work", async () => {
    const file = join(tempDir("res-out"), "afile");
    writeFileSync(file, "keep\n");
    for (const args of [
      ["scale", ROOT, "--depth", "1", "--out", file],
      ["scale", "experiment", ROOT, "--agent", "oracle", "--depths", "0,1", "--out", file],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^longhaul: --out [^\n]*a folder is expected\n$/);
    }
    expect(readFileSync(file, "utf8")).toBe("keep\n");
  });

  it("`scale verify` passes the child, and rejects it once channel.json was edited", async () => {
    const child = join(out, "heatwave-audit-b1-d2");
    const ok = await cli(["scale", "verify", child, "--no-trials"]);
    expect(ok.code).toBe(0);
    const file = join(child, "tests/res/channel.json");
    const decl = JSON.parse(readFileSync(file, "utf8")) as { steps: unknown[] };
    decl.steps.pop();
    writeFileSync(file, `${JSON.stringify(decl, null, 1)}\n`);
    const bad = await cli(["scale", "verify", child, "--no-trials", "--json"]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("non-reproducible");
  });
});
