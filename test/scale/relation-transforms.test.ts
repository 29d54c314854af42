import { describe, expect, it } from "vitest";
import { utf8 } from "../../src/scale/file-tree.js";
import { getTransform } from "../../src/scale/transforms/registry.js";
import { RELATION_TRANSFORMS } from "../../src/scale/transforms/relation/index.js";
import { parseTable, serializeTable, type Table } from "../../src/scale/transforms/shared/table.js";
import type { FileTree } from "../../src/scale/types.js";
import { describeTransformConformance } from "../support/transform-conformance.js";
import { arbTable, arbTree, fc } from "./relop-arbitraries.js";
import { restoreCopy, roundTrip, samplesFor } from "./relop-kit.js";

const NAMES = [
  "manifest",
  "nested-manifest",
  "cross-reference",
  "pointer-chain",
  "fk-normalize",
  "versions",
  "decoy-records",
  "backfill",
];

it("lists the relation transforms by their names, registered", () => {
  expect(RELATION_TRANSFORMS.map((t) => t.name)).toEqual(NAMES);
  for (const n of NAMES) expect(getTransform(n).kind).toBe("relation");
  expect(RELATION_TRANSFORMS.filter((t) => t.basic).map((t) => t.name)).toEqual(["manifest"]);
});

for (const t of RELATION_TRANSFORMS) describeTransformConformance(t, samplesFor(t));

const FC = { seed: 20240601, numRuns: 6 } as const;

function tableTree(t: Table): { env: FileTree; path: string } {
  const path = `tables/in put.${t.dialect.format}`;
  return {
    env: new Map([
      [path, serializeTable(t)],
      ["keep/other.txt", utf8.encode("unrelated\n")],
    ]),
    path,
  };
}

describe.each(["fk-normalize", "decoy-records", "backfill", "versions"])(
  "%s round-trips random tables",
  (name) => {
    it("restores the table byte for byte", () => {
      const t = getTransform(name);
      fc.assert(
        fc.property(arbTable, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (table, seed) => {
          const { env, path } = tableTree(table);
          const bytes = env.get(path) as Uint8Array;
          fc.pre(parseTable(path, bytes) !== undefined && t.accepts(path, bytes));
          const out = t.apply({ env, targets: [path], params: t.defaultParams(seed), seed });
          const back = restoreCopy(out.env, out.restore);
          expect(utf8.decode(back.get(path) ?? new Uint8Array())).toBe(utf8.decode(bytes));
          expect(back.get("keep/other.txt")).toEqual(env.get("keep/other.txt"));
        }),
        FC,
      );
    });
  },
);

describe.each(["manifest", "nested-manifest", "cross-reference", "pointer-chain", "versions"])(
  "%s round-trips random trees",
  (name) => {
    it("brings the target back byte for byte and leaves the rest alone", () => {
      const t = getTransform(name);
      fc.assert(
        fc.property(arbTree, fc.nat(), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (files, pick, seed) => {
          const env = new Map(files);
          const target = (files[pick % files.length] as [string, Uint8Array])[0];
          fc.pre(t.accepts(target, env.get(target) as Uint8Array));
          const out = t.apply({ env, targets: [target], params: t.defaultParams(seed), seed });
          const back = restoreCopy(out.env, out.restore);
          for (const [p, b] of env) expect(Buffer.from(back.get(p) ?? []).equals(Buffer.from(b))).toBe(true);
        }),
        FC,
      );
    });
  },
);

const orders = (): FileTree =>
  new Map([
    ["data/orders.csv", utf8.encode("id,customer,amount\n1,acme,10\n2,globex,20\n3,acme,30\n4,acme,5\n")],
  ]);

describe("relation transform specifics", () => {
  it("manifest names only the manifest in its access text", () => {
    const { out, before, after } = roundTrip(getTransform("manifest"), orders(), ["data/orders.csv"], 5);
    expect(after).toEqual(before);
    const manifest = out.produced[0] as string;
    const entries = JSON.parse(utf8.decode(out.env.get(manifest) as Uint8Array)).entries;
    const location = entries["data/orders.csv"].location as string;
    expect(out.access).toContain(manifest);
    expect(out.access).not.toContain(location);
    expect(out.env.get(location)).toEqual(orders().get("data/orders.csv"));
  });

  it("nested-manifest links the given number of manifest levels", () => {
    for (const levels of [2, 3]) {
      const { out, before, after } = roundTrip(
        getTransform("nested-manifest"),
        orders(),
        ["data/orders.csv"],
        9,
        { levels },
      );
      expect(after).toEqual(before);
      const manifests = out.produced.filter((p) => p.endsWith(".json"));
      expect(manifests).toHaveLength(levels);
      let m = manifests[0] as string;
      for (let i = 1; i < levels; i++) {
        m = JSON.parse(utf8.decode(out.env.get(m) as Uint8Array)).entries["data/orders.csv"].manifest;
        expect(manifests).toContain(m);
      }
    }
  });

  it("pointer-chain makes exactly `length` pointer files", () => {
    for (const length of [1, 4]) {
      const { out, before, after } = roundTrip(
        getTransform("pointer-chain"),
        orders(),
        ["data/orders.csv"],
        3,
        { length },
      );
      expect(after).toEqual(before);
      expect(out.produced.filter((p) => p.endsWith(".ptr"))).toHaveLength(length);
      expect(out.env.has("data/orders.csv.ptr")).toBe(true);
    }
  });

  it("cross-reference round-trips through every carrier and never one of the target's own type", () => {
    const t = getTransform("cross-reference");
    for (const carrier of ["sqlite", "ini", "json", "csv"]) {
      const env = new Map([["notes/a b.txt", utf8.encode("x")]]);
      const { out, before, after } = roundTrip(t, env, ["notes/a b.txt"], 4, { carrier });
      expect(after).toEqual(before);
      expect(out.produced[0]).toMatch(carrier === "sqlite" ? /\.sqlite$/ : new RegExp(`\\.${carrier}$`));
    }
    for (let seed = 0; seed < 20; seed++) {
      const out = t.apply({ env: orders(), targets: ["data/orders.csv"], params: {}, seed });
      expect(out.produced[0]).not.toMatch(/\.csv$/);
    }
    expect(() =>
      t.apply({ env: orders(), targets: ["data/orders.csv"], params: { carrier: "csv" }, seed: 1 }),
    ).toThrow(/carrier/);
  });

  it("versions keeps exactly one live copy, named by CURRENT, and stale ones that differ", () => {
    const t = getTransform("versions");
    const original = orders().get("data/orders.csv") as Uint8Array;
    for (const seed of [1, 2, 3]) {
      const out = t.apply({ env: orders(), targets: ["data/orders.csv"], params: { count: 4 }, seed });
      const current = utf8.decode(out.env.get("data/versions/orders.csv/CURRENT") as Uint8Array).trim();
      const copies = [1, 2, 3, 4].map(
        (v) => out.env.get(`data/versions/orders.csv/v${v}/orders.csv`) as Uint8Array,
      );
      const live = copies.filter((c) => Buffer.from(c).equals(Buffer.from(original)));
      expect(live).toHaveLength(1);
      expect(out.env.get(`data/versions/orders.csv/${current}/orders.csv`)).toEqual(original);
      // Stale copies are still tables with the same header, only some values changed.
      for (const c of copies) expect(utf8.decode(c).split("\n")[0]).toBe("id,customer,amount");
    }
  });

  it("decoy-records adds flagged rows that the restore drops", () => {
    const { out, before, after } = roundTrip(
      getTransform("decoy-records"),
      orders(),
      ["data/orders.csv"],
      11,
      { ratio: 0.5 },
    );
    expect(after).toEqual(before);
    const t = parseTable("data/orders.csv", out.env.get("data/orders.csv") as Uint8Array) as Table;
    const flag = t.header.indexOf("_status");
    expect(flag).toBeGreaterThanOrEqual(0);
    expect(t.rows.filter((r) => r[flag] === "active")).toHaveLength(4);
    expect(t.rows.filter((r) => r[flag] !== "active")).toHaveLength(2);
  });

  it("fk-normalize replaces the repeated column by ids into a lookup table", () => {
    const { out, before, after } = roundTrip(getTransform("fk-normalize"), orders(), ["data/orders.csv"], 2, {
      column: "customer",
    });
    expect(after).toEqual(before);
    const facts = parseTable("x.csv", out.env.get("data/orders.facts.csv") as Uint8Array) as Table;
    const lookup = parseTable("x.csv", out.env.get("data/orders.lookup.csv") as Uint8Array) as Table;
    expect(facts.header).toEqual(["id", "customer_id", "amount"]);
    expect(lookup.rows.map((r) => r[1]).sort()).toEqual(["acme", "globex"]);
    expect(facts.rows.every((r) => /^[12]$/.test(String(r[1])))).toBe(true);
    expect(() =>
      getTransform("fk-normalize").apply({
        env: orders(),
        targets: ["data/orders.csv"],
        params: { column: "id" },
        seed: 1,
      }),
    ).toThrow(/repeated/);
  });

  it("backfill blanks cells keyed by a unique column and fills them back", () => {
    const { out, before, after } = roundTrip(getTransform("backfill"), orders(), ["data/orders.csv"], 8, {
      fraction: 0.5,
    });
    expect(after).toEqual(before);
    const side = parseTable("x.csv", out.env.get("data/orders.backfill.csv") as Uint8Array) as Table;
    const child = parseTable("x.csv", out.env.get("data/orders.csv") as Uint8Array) as Table;
    expect(side.rows).toHaveLength(4);
    for (const [row, column] of side.rows as string[][]) {
      const r = child.rows.find((x) => x[0] === row) as string[];
      expect(r[child.header.indexOf(column as string)]).toBe("");
    }
  });

  it("table transforms refuse what they cannot restore", () => {
    const ragged = utf8.encode("a,b\n1\n");
    const mixedKeys = utf8.encode('{"a":1}\n{"b":2}\n');
    for (const name of ["fk-normalize", "decoy-records", "backfill"]) {
      const t = getTransform(name);
      expect(t.accepts("x.csv", ragged)).toBe(false);
      expect(t.accepts("x.jsonl", mixedKeys)).toBe(false);
      expect(t.accepts("x.txt", utf8.encode("a,b\n1,1\n2,1\n"))).toBe(false);
    }
    expect(getTransform("fk-normalize").accepts("x.csv", utf8.encode("a,b\n1,2\n3,4\n"))).toBe(false);
  });
});
