import { describe, expect, it } from "vitest";
import { renameTask } from "../../src/scale/child/build-child.js";
import {
  parseSpecUpdates,
  renderSpecUpdate,
  restoreChain,
  sectionHeading,
} from "../../src/scale/child/spec-update.js";
import { parseDockerfile, rewriteDockerfile } from "../../src/scale/dockerfile.js";
import { utf8 } from "../../src/scale/file-tree.js";
import { renderLineageTree } from "../../src/scale/lineage/render.js";
import type { LineageNode } from "../../src/scale/lineage/store.js";
import { applyPlan } from "../../src/scale/plan/apply.js";
import { SeededProposer } from "../../src/scale/plan/seeded-proposer.js";
import { scanTestReads } from "../../src/scale/requirements.js";
import { registerTransform } from "../../src/scale/transforms/registry.js";
import { checkLeak, protectedLiterals } from "../../src/scale/verify/leak.js";
import { classifyFailure, missingRecords, referencedPaths } from "../../src/scale/verify/restore-diagnose.js";
import { GOOD_TOYS, toyGzip, toyMove } from "./support/toy-transforms.js";

const tree = (paths: Record<string, string>): Map<string, Uint8Array> =>
  new Map(Object.entries(paths).map(([p, t]) => [p, utf8.encode(t)]));

describe("Dockerfile mirroring", () => {
  const text = [
    "FROM longhaul-base:bookworm",
    "WORKDIR /app",
    "COPY data/ /app/data/",
    "COPY notes.txt report.py /app/",
    "COPY tool.py /usr/local/bin/tool.py",
    "COPY --from=build /out /app/out",
    "RUN python3 -c 'print(1)' \\",
    "  && true",
    "ENV X=1",
  ].join("\n");
  const dirs = new Set(["data"]);
  const info = parseDockerfile(text, (p) => dirs.has(p));

  it("treats as transformable only COPY lines that mirror a context path into the WORKDIR", () => {
    expect(info.workdir).toBe("/app");
    const copies = info.instructions.filter((i) => i.keyword === "COPY");
    expect(copies.map((c) => c.mirror?.sources ?? null)).toEqual([
      ["data"],
      ["notes.txt", "report.py"],
      null,
      null,
    ]);
  });

  it("rewrites the mirroring lines to copy the transformed tree and leaves every other line", () => {
    const child = rewriteDockerfile(text, info, ["data/", "notes.txt", "vault/"]);
    expect(child.split("\n")).toEqual([
      "FROM longhaul-base:bookworm",
      "WORKDIR /app",
      "COPY data/ /app/data/",
      "COPY notes.txt /app/notes.txt",
      "COPY vault/ /app/vault/",
      "COPY tool.py /usr/local/bin/tool.py",
      "COPY --from=build /out /app/out",
      "RUN python3 -c 'print(1)' \\",
      "  && true",
      "ENV X=1",
    ]);
  });

  it("does not mirror a folder copied into the workdir's root or a file renamed on the way", () => {
    const other = parseDockerfile(
      "WORKDIR /app\nCOPY data /app/\nCOPY a.csv /app/b.csv\n",
      (p) => p === "data",
    );
    expect(other.instructions.filter((i) => i.mirror !== undefined)).toEqual([]);
  });
});

describe("which environment files the tests read", () => {
  const env = tree({
    "data/orders.csv": "",
    "data/extra.csv": "",
    "config/rates.json": "",
    "README.md": "",
    "lib/a.txt": "",
  });
  it("finds absolute workdir paths, relative paths, unique quoted names and named folders", () => {
    const tests = tree({
      "test_a.py": 'ORDERS = "/app/data/orders.csv"\nopen("rates.json")\n',
      "test.sh": "cd /app && cat lib/a.txt\nls /tests/README.md\n",
    });
    expect(scanTestReads(tests, env, "/app")).toEqual(["config/rates.json", "data/orders.csv", "lib/a.txt"]);
    const globbing = tree({ "t.py": 'glob.glob("/app/data/*.csv")' });
    expect(scanTestReads(globbing, env, "/app")).toEqual(["data/extra.csv", "data/orders.csv"]);
  });
  it("finds nothing when the tests name no environment file", () => {
    expect(scanTestReads(tree({ "t.py": 'open("/app/out/report.json")' }), env, "/app")).toEqual([]);
  });
});

describe("the spec update", () => {
  const steps = [
    { label: "d1.2", why: "decompress", run: "gzip -dc 'a.gz' > 'a'" },
    { label: "d1.1", why: "move back", run: "mv 'v/x' 'a.gz'\necho moved" },
  ];
  it("round-trips: the verifier reads back exactly the published steps, newest update first", () => {
    const one = renderSpecUpdate(1, "/app", [{ label: "d1.1", access: "a moved" }], steps);
    const two = renderSpecUpdate(
      2,
      "/app",
      [{ label: "d2.1", access: "b zipped" }],
      [{ label: "d2.1", why: "w", run: "true" }],
    );
    const text = `# Task\n\nDo it.\n\n${one}\n${two}`;
    const parsed = parseSpecUpdates(text);
    expect(parsed.goal).toBe("# Task\n\nDo it.\n\n");
    expect(parsed.sections.map((s) => s.depth)).toEqual([1, 2]);
    expect(parsed.sections[0]?.steps).toEqual(steps);
    expect(restoreChain(text).map((s) => s.label)).toEqual(["d2.1", "d1.2", "d1.1"]);
    expect(two).toContain(sectionHeading(2));
    expect(two).toContain("after them, run the commands of the update at depth 1");
  });
});

describe("task.toml of a child", () => {
  it("renames an explicit [task] name and leaves everything else", () => {
    const toml = 'version = "1.0"\n[task]\nname = "org/x"\n[metadata]\nname = "kept"\n';
    expect(renameTask(toml, "x-b1-d1")).toBe(
      'version = "1.0"\n[task]\nname = "x-b1-d1"\n[metadata]\nname = "kept"\n',
    );
  });
});

describe("the seeded planner", () => {
  for (const t of GOOD_TOYS) registerTransform(t);
  const env = tree({ "data/orders.csv": "id\n1\n", "config/rates.json": "{}" });
  const request = {
    tree: env,
    resources: ["config/rates.json", "data/orders.csv"],
    library: "basic" as const,
    transforms: [toyGzip, toyMove],
    steps: 3,
  };
  const proposer = new SeededProposer();

  it("gives the same plan for the same seed, and plans that apply", () => {
    const a = proposer.propose({ ...request, seed: 5 });
    expect(a).toEqual(proposer.propose({ ...request, seed: 5 }));
    expect(a?.steps).toHaveLength(3);
    if (a) expect(() => applyPlan(env, a)).not.toThrow();
  });

  it("composes: some step binds to a path an earlier step of the plan produced", () => {
    const composed = Array.from({ length: 20 }, (_, seed) => proposer.propose({ ...request, seed })).filter(
      (p) => {
        if (p === null) return false;
        const applied = applyPlan(env, p);
        return p.steps.some((s, i) =>
          applied.steps.slice(0, i).some((e) => e.produced.some((x) => s.targets.includes(x))),
        );
      },
    );
    expect(composed.length).toBeGreaterThan(10);
  });

  it("repairs by re-ordering when a step's prerequisite was unsatisfied, keeping the plan applicable", () => {
    const previous = {
      proposer: "seeded",
      library: "basic" as const,
      seed: 1,
      steps: [
        { transform: "toy-gzip", targets: ["config/rates.json"], params: {}, seed: 1 },
        { transform: "toy-move", targets: ["data/orders.csv"], params: {}, seed: 2 },
      ],
    };
    const diagnostics = [{ code: "unsatisfied-prerequisite" as const, step: "d1.1", message: "" }];
    const repaired = proposer.repair({ ...request, seed: 1, previous, diagnostics, attempt: 1 });
    expect(repaired?.steps.map((s) => s.transform)).toEqual(["toy-move", "toy-gzip"]);
    const reparam = proposer.repair({ ...request, seed: 1, previous, diagnostics, attempt: 2 });
    expect(reparam?.steps.map((s) => s.targets)).toBeDefined();
    expect(reparam).not.toEqual(previous);
  });
});

describe("telling restore failures apart", () => {
  const step = {
    label: "d1.1",
    why: "",
    run: "gzip -dc 'data/a.csv.gz' > 'data/a.csv' && rm 'data/a.csv.gz'",
  };
  it("names read paths but not redirect targets", () => {
    expect(referencedPaths(step.run)).toEqual(["data/a.csv.gz"]);
    expect(referencedPaths("python3 .tools/unlock.py --key k/key.bin -o x")).toEqual([
      ".tools/unlock.py",
      "k/key.bin",
    ]);
  });
  it("unsatisfied prerequisite, wrong reference, plain failure", () => {
    const later = [new Set(["data", "data/a.csv.gz"])];
    expect(classifyFailure(step, 1, "", new Set(["data"]), later).code).toBe("unsatisfied-prerequisite");
    expect(classifyFailure(step, 1, "", new Set(["data"]), [new Set(["data"])]).code).toBe("wrong-reference");
    expect(classifyFailure(step, 1, "", new Set(["data", "data/a.csv.gz"]), []).code).toBe("restore-failed");
  });
  it("lists the records a restored file lacks", () => {
    expect(missingRecords(utf8.encode("h\na\nb\na\n"), utf8.encode("h\na\nb\n"))).toEqual(["a"]);
  });
});

describe("the leak check", () => {
  const snapshot = tree({
    "data/o.csv": 'id,customer,amount\n1001,"Acme, Inc.",120.50\n7,EU,1.0\n',
    "c.json": '{"base": "EUR", "secret": "hunter22"}',
  });
  it("extracts the literals worth protecting (not headers, not short values)", () => {
    expect(protectedLiterals("data/o.csv", snapshot.get("data/o.csv") ?? new Uint8Array())).toEqual([
      "1001",
      "Acme, Inc.",
      "120.50",
    ]);
  });
  it("flags a protected value in the update, unless the task already showed it", () => {
    const base = { facts: [], snapshot, alreadyPublic: "The customer Acme, Inc. is special." };
    expect(
      checkLeak({ ...base, section: "- **d1.1** the key is hunter22" }).diagnostics.map((d) => d.step),
    ).toEqual(["d1.1"]);
    expect(checkLeak({ ...base, section: "- **d1.1** see Acme, Inc. and file v/1001x.bin" }).status).toBe(
      "pass",
    );
  });
});

describe("scale tree", () => {
  it("draws each node with its transforms and verifier result", () => {
    const node = (id: string, parent: string | null, status: LineageNode["status"]): LineageNode => ({
      id,
      parent,
      status,
      depth: parent === null ? 0 : 1,
      branch: 1,
      mode: "recursive",
      dir: id,
      seed: 1,
      attempts: 1,
      plan:
        parent === null
          ? null
          : {
              proposer: "seeded",
              library: "basic",
              seed: 1,
              steps: [{ transform: "toy-gzip", targets: ["a"], params: {}, seed: 1 }],
            },
      env_digest: null,
      checks:
        parent === null
          ? []
          : [{ name: "restore", status: status === "approved" ? "pass" : "fail", detail: "" }],
      diagnostics:
        status === "discarded" ? [{ code: "wrong-reference", step: "d1.1", message: "x missing" }] : [],
      rejections: [],
      seconds: 0,
    });
    const text = renderLineageTree([
      node("r", null, "root"),
      node("c1", "r", "approved"),
      node("c2", "r", "discarded"),
    ]);
    expect(text.split("\n")).toEqual([
      "r (root)",
      "├─ c1  approved  depth 1  attempts 1",
      "│     transforms: toy-gzip(a)",
      "│     verifier: ✓restore",
      "└─ c2  discarded  depth 1  attempts 1",
      "      transforms: toy-gzip(a)",
      "      verifier: ✗restore",
      "      wrong-reference @d1.1: x missing",
      "",
    ]);
  });
});
