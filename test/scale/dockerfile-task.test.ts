import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { buildChildFiles, loadParent } from "../../src/scale/child/build-child.js";
import { treeDigest, writeTree } from "../../src/scale/file-tree.js";
import { applyPlan } from "../../src/scale/plan/apply.js";
import type { Plan } from "../../src/scale/plan/schema.js";
import { readTaskTreeOf } from "../../src/scale/task-tree.js";
import { registerTransform } from "../../src/scale/transforms/registry.js";
import { verifyChild } from "../../src/scale/verify/verify-child.js";
import { loadTask } from "../../src/task/load.js";
import { tempDir } from "../runner/helpers.js";
import { GOOD_TOYS } from "./support/toy-transforms.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

const DOCKERFILE = [
  "# The ledger, copied into the workdir; a build note that is not the agent's.",
  "FROM longhaul-base:bookworm",
  "WORKDIR /app",
  "COPY data/ /app/data/",
  "COPY config/rates.json /app/config/rates.json",
  "COPY build-note.txt /opt/build-note.txt",
  "RUN true",
  "",
].join("\n");

describe("a Dockerfile task stays a Dockerfile task", () => {
  for (const t of GOOD_TOYS) registerTransform(t);
  const root = join(tempDir("res-docker"), "ledger-docker");
  cpSync(LEDGER, root, { recursive: true });
  writeFileSync(join(root, "environment/Dockerfile"), DOCKERFILE);
  writeFileSync(join(root, "environment/build-note.txt"), "built by hand\n");

  it("transforms only files a COPY mirrors into the WORKDIR", () => {
    const t = readTaskTreeOf(root);
    expect([...t.tree.keys()].sort()).toEqual(["config/rates.json", "data/orders.csv", "data/refunds.jsonl"]);
    expect([...t.rest.keys()].sort()).toEqual(["Dockerfile", "build-note.txt"]);
  });

  it("rewrites the mirroring COPY lines, keeps the rest, and the child verifies", async () => {
    const parent = await loadParent(root);
    const plan: Plan = {
      proposer: "test",
      library: "basic",
      seed: 1,
      steps: [
        { transform: "toy-gzip", targets: ["config/rates.json"], params: {}, seed: 1 },
        { transform: "toy-move", targets: ["config/rates.json.gz"], params: {}, seed: 2 },
      ],
    };
    const applied = applyPlan(parent.tree.tree, plan);
    const dir = join(root, "..", "child");
    const meta = { id: "child", depth: 1, mode: "recursive" as const, branch: 1, attempt: 0, childDir: dir };
    writeTree(dir, buildChildFiles(parent, plan, applied, meta).files);

    const vault = [...applied.env.keys()].find((p) => p.startsWith("vault/")) ?? "";
    expect(readFileSync(join(dir, "environment/Dockerfile"), "utf8").split("\n")).toEqual([
      "# The ledger, copied into the workdir; a build note that is not the agent's.",
      "FROM longhaul-base:bookworm",
      "WORKDIR /app",
      "COPY data/ /app/data/",
      "COPY vault/ /app/vault/",
      "COPY build-note.txt /opt/build-note.txt",
      "RUN true",
      "",
    ]);
    expect(readFileSync(join(dir, "environment/build-note.txt"), "utf8")).toBe("built by hand\n");
    expect(treeDigest(readTaskTreeOf(dir).tree)).toBe(treeDigest(applied.env));
    expect(vault).toMatch(/^vault\/[0-9a-f]+\.bin$/);
    expect((await loadTask(dir)).image?.dockerfile).toBe(join(dir, "environment/Dockerfile"));

    // Trials would build the image; checks (a), (b), (c) and (e) need none.
    const v = await verifyChild(dir, { provider: getSandboxProvider("bwrap"), trials: false });
    expect(v.diagnostics).toEqual([]);
  });
});
