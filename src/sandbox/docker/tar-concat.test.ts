import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { InfraError } from "../../core/errors.js";
import { pipeTarsOk } from "./tar-concat.js";

const root = mkdtempSync(join(tmpdir(), "longhaul-tar-concat-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tarOf = (dir: string, name: string, to: string): string[] => [
  "-C",
  dir,
  `--transform=s,^[^/]*,${to},S`,
  "--",
  name,
];

it("joins several tars into one archive that a plain tar -x reads to its end", async () => {
  const a = join(root, "a");
  mkdirSync(join(a, "sub"), { recursive: true });
  // Data that ends in zero blocks: only the end-of-archive blocks may be dropped, never these.
  const zeros = Buffer.concat([Buffer.from("head"), Buffer.alloc(4096)]);
  writeFileSync(join(a, "sub", "zeros.bin"), zeros);
  const b = join(root, "b.txt");
  writeFileSync(b, "second\n");
  const big = join(root, "big");
  mkdirSync(big);
  const bytes = Buffer.alloc(3 << 20, 7);
  writeFileSync(join(big, "f"), bytes);
  const out = join(root, "out");
  mkdirSync(out);
  await pipeTarsOk(
    "test",
    [tarOf(root, "a", "x/tests"), tarOf(root, "b.txt", "y.txt"), tarOf(root, "big", "deep/er/big")],
    ["tar", "-x", "-C", out, "-f", "-"],
  );
  expect(readFileSync(join(out, "x/tests/sub/zeros.bin")).equals(zeros)).toBe(true);
  expect(readFileSync(join(out, "y.txt"), "utf8")).toBe("second\n");
  expect(readFileSync(join(out, "deep/er/big/f")).equals(bytes)).toBe(true);
});

it("fails when a tar fails (a missing source) or the consumer does", async () => {
  const sink = ["tar", "-t", "-f", "-"];
  const dir = join(root, "c");
  mkdirSync(dir);
  writeFileSync(join(dir, "f"), "x");
  await expect(pipeTarsOk("t", [tarOf(root, "c", "c"), ["-C", root, "nope"]], sink)).rejects.toThrow(/nope/);
  await expect(pipeTarsOk("t", [tarOf(root, "c", "c")], ["false"])).rejects.toThrow(InfraError);
});
