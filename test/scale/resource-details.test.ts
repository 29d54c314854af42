import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { canonicalDigest, groundFacts } from "../../src/scale/facts.js";
import { utf8, writeTree } from "../../src/scale/file-tree.js";
import { getTransform } from "../../src/scale/transforms/registry.js";
import { PathPicker } from "../../src/scale/transforms/resource/common.js";
import { rotateRgba } from "../../src/scale/transforms/resource/image-rotate.js";
import { RESOURCE_TRANSFORMS } from "../../src/scale/transforms/resource/index.js";
import { PNG_ROTATE_PY } from "../../src/scale/transforms/resource/png-tool.js";
import { ustarArchive } from "../../src/scale/transforms/resource/tar.js";
import type { FileTree } from "../../src/scale/types.js";
import { restoreInTemp, runRestore, sampleEnvironments } from "../support/transform-conformance.js";
import { samplePng } from "./sample-environments.js";

const enc = utf8.encode;
const [shop, research] = sampleEnvironments() as [FileTree, FileTree, FileTree];

function apply(name: string, env: FileTree, targets: string[], seed = 1, params?: unknown) {
  const t = getTransform(name);
  return t.apply({ env, targets, params: params ?? t.defaultParams(seed), seed });
}

function inTemp<T>(f: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "lh-details-"));
  try {
    return f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("target checks shared by every resource transform", () => {
  it("refuses a wrong target count, duplicates, missing files, unaccepted files and bad parameters", () => {
    expect(() => apply("gzip", shop, ["README.md", "config/app.json"])).toThrow(UserError);
    expect(() => apply("archive", shop, ["README.md"])).toThrow(/at least two/);
    expect(() => apply("archive", shop, ["README.md", "README.md"])).toThrow(/duplicate/);
    expect(() => apply("base64", shop, ["nope.txt"])).toThrow(/nope\.txt/);
    expect(() => apply("image-rotate", shop, ["README.md"])).toThrow(/cannot take README\.md/);
    expect(() => apply("gzip", shop, ["README.md"], 1, { level: 42 })).toThrow(/bad parameters/);
  });
});

describe("awkward file names", () => {
  const names = ["-dash.csv", "it's here/a b.csv", "ünï/ça va $x.csv"];
  const env: FileTree = new Map(names.map((n) => [n, enc("k,v\nx,1\ny,2\nx,3\n")]));
  for (const t of RESOURCE_TRANSFORMS) {
    it(`${t.name} restores names with a leading dash, quotes, spaces, $ and non-ASCII`, () => {
      const sets = t.arity === "many" ? [names] : names.map((n) => [n]);
      let ran = 0;
      for (const targets of sets.filter((ts) => ts.every((n) => t.accepts(n, env.get(n) as Uint8Array)))) {
        const out = t.apply({ env, targets, params: t.defaultParams(2), seed: 2 });
        expect(groundFacts(restoreInTemp(out.env, out.restore))).toEqual(groundFacts(env));
        ran++;
      }
      expect(ran > 0 || t.name === "image-rotate").toBe(true);
    });
  }
});

describe("PathPicker", () => {
  it("avoids existing files, their folders, and paths under a file", () => {
    const p = new PathPicker(["a/b.txt", "c"]);
    expect(p.isFree("a/b.txt")).toBe(false);
    expect(p.isFree("a")).toBe(false);
    expect(p.isFree("c/d")).toBe(false);
    expect(p.isFree("a/c.txt")).toBe(true);
    expect(p.pick((i) => ["a/b.txt", "a", "a/x"][i] as string)).toBe("a/x");
    expect(p.isFree("a/x")).toBe(false);
  });
  it("makes transforms step around a name that is already taken", () => {
    const env = new Map(shop);
    env.set("README.md.gz", enc("someone else's file"));
    const out = apply("gzip", env, ["README.md"]);
    expect(out.produced[0]).toMatch(/^README\.md\.[0-9a-f]{4}\.gz$/);
    expect(out.env.get("README.md.gz")).toEqual(enc("someone else's file"));
  });
});

describe("archive", () => {
  it("writes the same bytes whatever the target order, readable by tar with fixed owner and date", () => {
    const a = apply("archive", shop, ["README.md", "data/orders.csv", "assets/logo.png"]);
    const b = apply("archive", shop, ["assets/logo.png", "README.md", "data/orders.csv"]);
    const tarPath = a.produced[0] as string;
    expect(a.env.get(tarPath)).toEqual(b.env.get(tarPath));
    const listing = inTemp((dir) => {
      writeTree(dir, a.env);
      return spawnSync("tar", ["-tvf", tarPath], {
        cwd: dir,
        encoding: "utf8",
        env: { TZ: "UTC", PATH: process.env.PATH },
      }).stdout;
    });
    const lines = listing.trim().split("\n");
    expect(lines.map((l) => l.split(/\s+/).pop())).toEqual([
      "README.md",
      "assets/logo.png",
      "data/orders.csv",
    ]);
    for (const l of lines) expect(l).toMatch(/^-rw-r--r-- root\/root .* 2020-01-01 00:00 /);
  });
  it("stores paths longer than 100 bytes in the ustar prefix field", () => {
    const long = `${"deep/".repeat(25)}file-with-a-long-name.txt`;
    const files = inTemp((dir) => {
      writeFileSync(join(dir, "t.tar"), ustarArchive(new Map([[long, enc("payload")]])));
      runRestore(dir, [{ run: "tar -xf t.tar", why: "extract" }]);
      return readFileSync(join(dir, long), "utf8");
    });
    expect(files).toBe("payload");
  });
});

describe("image-rotate", () => {
  const img: { width: number; height: number; data: Uint8Array } = {
    width: 3,
    height: 2,
    data: Uint8Array.from({ length: 24 }, (_, i) => i),
  };
  it("rotates clockwise: four quarter turns are the identity, 90 then 270 too", () => {
    let r = img;
    for (let i = 0; i < 4; i++) r = rotateRgba(r, 90);
    expect(r).toEqual(img);
    expect(rotateRgba(rotateRgba(img, 90), 270)).toEqual(img);
    const q = rotateRgba(img, 90);
    expect([q.width, q.height]).toEqual([2, 3]);
    // The bottom-left source pixel (0, 1) lands top-left after a clockwise quarter turn.
    expect([...q.data.subarray(0, 4)]).toEqual([...img.data.subarray(12, 16)]);
  });
  it("the placed Python tool rotates exactly like the transform, for RGB and RGBA with any filters", () => {
    for (const colorType of [2, 6] as const) {
      const bytes = samplePng(5, 3, colorType, 3);
      const src = PNG.sync.read(Buffer.from(bytes));
      for (const deg of [90, 180, 270] as const) {
        const rotated = inTemp((dir) => {
          writeFileSync(join(dir, "tool.py"), PNG_ROTATE_PY);
          writeFileSync(join(dir, "in.png"), bytes);
          runRestore(dir, [{ run: `python3 tool.py in.png out.png ${deg}`, why: "rotate" }]);
          return PNG.sync.read(readFileSync(join(dir, "out.png")));
        });
        const want = rotateRgba(
          { width: src.width, height: src.height, data: new Uint8Array(src.data) },
          deg,
        );
        expect([rotated.width, rotated.height]).toEqual([want.width, want.height]);
        expect(new Uint8Array(rotated.data)).toEqual(want.data);
      }
    }
  });
  it("refuses images that some rotation leaves unchanged, and 16-bit images", () => {
    const t = getTransform("image-rotate");
    const flat = new PNG({ width: 4, height: 4 });
    flat.data.fill(200);
    expect(t.accepts("flat.png", new Uint8Array(PNG.sync.write(flat)))).toBe(false);
    const wide = new PNG({ width: 4, height: 2 });
    wide.data.fill(9);
    expect(t.accepts("w.png", new Uint8Array(PNG.sync.write(wide)))).toBe(false);
    const deep = new PNG({ width: 3, height: 2, bitDepth: 16 });
    expect(t.accepts("d.png", new Uint8Array(PNG.sync.write(deep, { bitDepth: 16 })))).toBe(false);
    expect(t.accepts("a.png", samplePng(3, 2, 6, 1))).toBe(true);
  });
  it("reuses an identical tool already placed, and does not overwrite a different file at its path", () => {
    const once = apply("image-rotate", research, ["img/chart.png"]);
    expect(once.produced).toEqual([".tools/png_rotate.py"]);
    const env = new Map(once.env);
    env.set("img/other.png", samplePng(4, 3, 6, 9));
    expect(apply("image-rotate", env, ["img/other.png"]).produced).toEqual([]);
    const squatted = new Map(research);
    squatted.set(".tools/png_rotate.py", enc("print('not the tool')\n"));
    const out = apply("image-rotate", squatted, ["img/chart.png"]);
    expect(out.produced[0]).toMatch(/^\.tools\/png_rotate_[0-9a-f]{4}\.py$/);
    expect(out.env.get(".tools/png_rotate.py")).toEqual(enc("print('not the tool')\n"));
  });
});

describe("table transforms", () => {
  it("format-change keeps a column order that JSON objects would reorder (integer-like names)", () => {
    const env = new Map([["t.csv", enc("b,1,a\nx,y,z\n")]]);
    const out = apply("format-change", env, ["t.csv"], 1, { prefer: "text", table: "rows" });
    expect(utf8.decode(out.env.get("t.jsonl") as Uint8Array)).toBe('{"b":"x","1":"y","a":"z"}\n');
    expect(groundFacts(restoreInTemp(out.env, out.restore))).toEqual(groundFacts(env));
  });
  it("format-change accepts only tables it can convert exactly", () => {
    const t = getTransform("format-change");
    expect(t.accepts("r.csv", enc("a,b\n1\n"))).toBe(false); // ragged
    expect(t.accepts("d.csv", enc("a,a\n1,2\n"))).toBe(false); // duplicate header
    expect(t.accepts("q.csv", enc('a\n"open\n'))).toBe(false); // bad quoting
    expect(t.accepts("e.csv", enc("A,a\n"))).toBe(false); // no rows for JSONL, case clash for SQLite
    expect(t.accepts("k.jsonl", enc('{"a":1}\n{"b":1}\n'))).toBe(false); // different keys
    expect(t.accepts("n.jsonl", enc("[1]\n"))).toBe(false);
    expect(t.accepts("x.txt", enc("a,b\n1,2\n"))).toBe(false);
    expect(t.accepts("ok.jsonl", enc('{"a":1,"b":[2]}\n{"b":null,"a":"x"}\n'))).toBe(true);
  });
  it("JSONL with non-string values goes to CSV cells holding JSON, and comes back equal", () => {
    const env = new Map([
      ["s.jsonl", enc('{"n":1.5,"t":"x,y","o":{"k":[true,null]}}\n{"n":-2,"t":"","o":{}}\n')],
    ]);
    const out = apply("format-change", env, ["s.jsonl"], 1, { prefer: "text", table: "rows" });
    expect(utf8.decode(out.env.get("s.csv") as Uint8Array)).toBe(
      'n,t,o\n1.5,"""x,y""","{""k"":[true,null]}"\n-2,"""""",{}\n',
    );
    expect(groundFacts(restoreInTemp(out.env, out.restore))).toEqual(groundFacts(env));
  });
  it("field-rename hides every column name and the access text names none of them", () => {
    const out = apply("field-rename", shop, ["data/orders.csv"]);
    const header = utf8.decode(out.env.get("data/orders.csv") as Uint8Array).split("\n")[0] as string;
    for (const name of ["id", "customer", "region", "amount", "note"]) {
      expect(header.split(",")).not.toContain(name);
      expect(out.access).not.toContain(`\`${name}\``);
    }
    const dict = JSON.parse(utf8.decode(out.env.get(out.produced[0] as string) as Uint8Array));
    expect(Object.values(dict.fields).sort()).toEqual(["amount", "customer", "id", "note", "region"]);
  });
  it("partition groups rows by the key column, one value per part", () => {
    const out = apply("partition", shop, ["data/orders.csv"]);
    const parts = out.produced.map((p) => utf8.decode(out.env.get(p) as Uint8Array));
    expect(parts).toHaveLength(3); // north, south, east
    const regions = parts.map(
      (text) => new Set([...text.matchAll(/,(north|south|east),/g)].map((m) => m[1])),
    );
    for (const r of regions) expect(r.size).toBe(1);
    expect(parts.every((text) => text.startsWith("id,customer,region,amount,note\n"))).toBe(true);
  });
});

describe("text-reencode", () => {
  it("uses Latin-1 when every character fits and one is non-ASCII, else UTF-16LE with a BOM", () => {
    const env = new Map([
      ["l.txt", enc("naïve café\n")],
      ["u.txt", enc("price: 5 €\n")],
      ["a.txt", enc("plain ascii\n")],
    ]);
    const latin = apply("text-reencode", env, ["l.txt"], 1, { encoding: "latin-1" });
    expect([...(latin.env.get("l.txt") as Uint8Array)].slice(0, 4)).toEqual([0x6e, 0x61, 0xef, 0x76]);
    for (const p of ["u.txt", "a.txt"]) {
      const wide = apply("text-reencode", env, [p], 1, { encoding: "latin-1" });
      expect([...(wide.env.get(p) as Uint8Array)].slice(0, 2)).toEqual([0xff, 0xfe]);
      expect(canonicalDigest(p, restoreInTemp(wide.env, wide.restore).get(p) as Uint8Array)).toBe(
        canonicalDigest(p, env.get(p) as Uint8Array),
      );
    }
    expect(getTransform("text-reencode").accepts("b.bin", new Uint8Array([0xff, 0x00]))).toBe(false);
  });
});
