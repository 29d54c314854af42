import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { groundFacts } from "../../src/scale/facts.js";
import { readTree, utf8, writeTree } from "../../src/scale/file-tree.js";
import { OPERATION_TRANSFORMS } from "../../src/scale/transforms/operation/index.js";
import { getTransform } from "../../src/scale/transforms/registry.js";
import { keystreamXor, seal, unseal } from "../../src/scale/transforms/shared/crypto.js";
import type { FileTree, RestoreStep } from "../../src/scale/types.js";
import { describeTransformConformance, runRestore } from "../support/transform-conformance.js";
import { arbDb, arbFiles, fc } from "./relop-arbitraries.js";
import { allSamples, restoreCopy, roundTrip, samplesFor } from "./relop-kit.js";

const NAMES = [
  "prepare-step",
  "unlock-key",
  "index-repair",
  "schema-migration",
  "local-service",
  "staged-keys",
  "lock-file",
];

it("lists the operation transforms by their names, registered", () => {
  expect(OPERATION_TRANSFORMS.map((t) => t.name)).toEqual(NAMES);
  for (const n of NAMES) expect(getTransform(n).kind).toBe("operation");
  expect(OPERATION_TRANSFORMS.filter((t) => t.basic).map((t) => t.name)).toEqual(["prepare-step"]);
});

for (const t of OPERATION_TRANSFORMS) describeTransformConformance(t, samplesFor(t));

const FC = { seed: 7101, numRuns: 4 } as const;

/** Runs steps in a scratch copy of `tree` and reports whether they all succeeded. */
function stepsSucceed(tree: FileTree, steps: readonly RestoreStep[]): boolean {
  try {
    restoreCopy(tree, steps);
    return true;
  } catch {
    return false;
  }
}

describe.each(NAMES.filter((n) => n !== "schema-migration"))("%s round-trips random files", (name) => {
  it("brings the target back byte for byte", () => {
    const t = getTransform(name);
    fc.assert(
      fc.property(arbFiles, fc.nat(), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (files, pick, seed) => {
        const env = new Map(files);
        const target = (files[pick % files.length] as [string, Uint8Array])[0];
        const out = t.apply({ env, targets: [target], params: t.defaultParams(seed), seed });
        const back = restoreCopy(out.env, out.restore);
        for (const [p, b] of env) expect(Buffer.from(back.get(p) ?? []).equals(Buffer.from(b))).toBe(true);
      }),
      name === "local-service" ? { ...FC, numRuns: 2 } : FC,
    );
  });
});

describe("schema-migration round-trips random databases", () => {
  it("restores the logical content", () => {
    const t = getTransform("schema-migration");
    fc.assert(
      fc.property(arbDb, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (db, seed) => {
        const env = new Map([["store/app.sqlite", db]]);
        fc.pre(t.accepts("store/app.sqlite", db));
        const { before, after, out } = roundTrip(t, env, ["store/app.sqlite"], seed, { scale: true });
        expect(after).toEqual(before);
        expect(groundFacts(out.env, ["store/app.sqlite"])).not.toEqual(before);
      }),
      FC,
    );
  });
});

const secret = (): FileTree =>
  new Map([
    ["data/payroll.csv", utf8.encode("name,salary\nada,120000\nbob,98000\ncy,101500\n")],
    ["README.md", utf8.encode("# Payroll\n")],
  ]);

describe("composition: unlock-key, then its key file through manifest, then prepare-step on the sealed file", () => {
  it("the reversed restores bring the target back, and only in that order", () => {
    const unlock = getTransform("unlock-key").apply({
      env: secret(),
      targets: ["data/payroll.csv"],
      params: { keyBytes: 32 },
      seed: 41,
    });
    const keyFile = unlock.produced.find((p) => p.endsWith(".key")) as string;
    const sealed = unlock.produced.find((p) => p.endsWith(".enc")) as string;
    expect(keyFile).toBeDefined();
    expect(sealed).toBe("data/payroll.csv.enc");
    const moved = getTransform("manifest").apply({
      env: unlock.env,
      targets: [keyFile],
      params: {},
      seed: 42,
    });
    expect(moved.env.has(keyFile)).toBe(false);
    const prepared = getTransform("prepare-step").apply({
      env: moved.env,
      targets: [sealed],
      params: { level: 9 },
      seed: 43,
    });
    expect(prepared.env.has(sealed)).toBe(false);
    expect(prepared.env.has("data/payroll.csv")).toBe(false);

    const full = [...prepared.restore, ...moved.restore, ...unlock.restore];
    const back = restoreCopy(prepared.env, full);
    expect(groundFacts(back, ["data/payroll.csv"])).toEqual(groundFacts(secret(), ["data/payroll.csv"]));
    expect(back.get("data/payroll.csv")).toEqual(secret().get("data/payroll.csv"));
    // Each layer is needed: without the manifest's restore the key is missing, without the export the sealed file.
    expect(stepsSucceed(prepared.env, [...prepared.restore, ...unlock.restore])).toBe(false);
    expect(stepsSucceed(prepared.env, [...moved.restore, ...unlock.restore])).toBe(false);
  });
});

describe("operation transform specifics", () => {
  it("keystream and sealing agree between TypeScript and the placed Python tool", () => {
    const key = utf8.encode("k".repeat(32));
    const data = new Uint8Array(1000).map((_, i) => (i * 31) % 256);
    expect(keystreamXor(key, keystreamXor(key, data))).toEqual(data);
    expect(unseal(key, seal(key, data))).toEqual(data);
    expect(() => unseal(utf8.encode("z".repeat(32)), seal(key, data))).toThrow(/wrong key/);
    const out = getTransform("unlock-key").apply({
      env: new Map([["a.bin", data]]),
      targets: ["a.bin"],
      params: { keyBytes: 32 },
      seed: 1,
    });
    const wrong = new Map(out.env).set("keys/wrong.key", utf8.encode(`${"00".repeat(32)}\n`));
    const decrypt = (key: string): RestoreStep[] => [
      { run: `python3 .tools/unlock.py ${key} a.bin.enc b.bin`, why: "decrypt" },
    ];
    expect(() => restoreCopy(wrong, decrypt("keys/wrong.key"))).toThrow(/wrong key/);
    const keyFile = out.produced.find((p) => p.endsWith(".key")) as string;
    expect(restoreCopy(out.env, decrypt(keyFile)).get("b.bin")).toEqual(data);
  });

  it("unlock-key tells where the key is, never the key", () => {
    const out = getTransform("unlock-key").apply({
      env: secret(),
      targets: ["data/payroll.csv"],
      params: { keyBytes: 32 },
      seed: 3,
    });
    const keyFile = out.produced.find((p) => p.endsWith(".key")) as string;
    const key = utf8.decode(out.env.get(keyFile) as Uint8Array).trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(out.access).toContain(keyFile);
    for (const text of [out.access, ...out.restore.map((s) => s.run)]) expect(text).not.toContain(key);
  });

  it("staged-keys works in both combine modes and needs every part", () => {
    for (const combine of ["xor", "concat"] as const) {
      const { out, before, after } = roundTrip(
        getTransform("staged-keys"),
        secret(),
        ["data/payroll.csv"],
        5,
        { parts: 3, combine },
      );
      expect(after).toEqual(before);
      const stagesPath = "data/payroll.csv.stages.json";
      const stages = JSON.parse(utf8.decode(out.env.get(stagesPath) as Uint8Array));
      expect(stages.combine).toBe(combine);
      expect(new Set(stages.parts.map((p: string) => p.split("/")[0])).size).toBe(3);
      const fewer = new Map(out.env);
      fewer.set(stagesPath, utf8.encode(JSON.stringify({ combine, parts: stages.parts.slice(1) })));
      expect(stepsSucceed(fewer, out.restore)).toBe(false);
    }
  });

  it("index-repair: extract refuses the damaged index, succeeds after repair-index", () => {
    const { out, before, after } = roundTrip(
      getTransform("index-repair"),
      secret(),
      ["data/payroll.csv"],
      6,
      { records: 5 },
    );
    expect(after).toEqual(before);
    expect(out.restore).toHaveLength(2);
    expect(stepsSucceed(out.env, out.restore.slice(1))).toBe(false);
    const index = JSON.parse(utf8.decode(out.env.get("data/payroll.idx") as Uint8Array));
    expect(index.state).toBe("damaged");
    expect(index.entries).toHaveLength(5);
  });

  it("lock-file: unpack refuses while locked; release wants the holder and an intact pack", () => {
    const { out, before, after } = roundTrip(getTransform("lock-file"), secret(), ["data/payroll.csv"], 7);
    expect(after).toEqual(before);
    const [release, unpack] = out.restore as [RestoreStep, RestoreStep];
    expect(stepsSucceed(out.env, [unpack])).toBe(false);
    expect(
      stepsSucceed(out.env, [{ ...release, run: release.run.replace(/--holder .*$/, "--holder nobody") }]),
    ).toBe(false);
    const tampered = new Map(out.env);
    const pack = tampered.get("data/payroll.csv.pack") as Uint8Array;
    tampered.set("data/payroll.csv.pack", Uint8Array.from([...pack, 0]));
    expect(stepsSucceed(tampered, [release])).toBe(false);
  });

  it("schema-migration needs every migration, in order", () => {
    const db = (allSamples()[3] as FileTree).get("store/inventory.db") as Uint8Array;
    const env = new Map([["store/inventory.db", db]]);
    const t = getTransform("schema-migration");
    expect(t.accepts("store/inventory.db", db)).toBe(true);
    const { out, before, after } = roundTrip(t, env, ["store/inventory.db"], 12, { scale: true });
    expect(after).toEqual(before);
    const migrations = out.produced.filter((p) => p.endsWith(".sql"));
    expect(migrations.length).toBeGreaterThanOrEqual(2);
    const dir = mkdtempSync(join(tmpdir(), "relop-mig-"));
    try {
      writeTree(dir, out.env);
      rmSync(join(dir, ...(migrations[migrations.length - 1] as string).split("/")));
      runRestore(dir, out.restore);
      expect(groundFacts(readTree(dir), ["store/inventory.db"])).not.toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("local-service restore leaves no server running and the port closed", async () => {
    const t = getTransform("local-service");
    const { out, before, after } = roundTrip(t, secret(), ["data/payroll.csv"], 99, { port: 38913 });
    expect(after).toEqual(before);
    const server = out.produced.find((p) => p.endsWith("server.py")) as string;
    const running = readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(server);
        } catch {
          return false;
        }
      });
    expect(running).toEqual([]);
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect({ host: "127.0.0.1", port: 38913 });
      s.once("connect", () => {
        s.destroy();
        resolve(false);
      });
      s.once("error", () => resolve(true));
    });
    expect(refused).toBe(true);
    expect(out.access).toContain("127.0.0.1:38913");
  });
});
