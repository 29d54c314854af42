import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { envChecksum } from "../../../src/sandbox/image/env-checksum.js";
import { tempDir } from "../../runner/helpers.js";

/** The checksum as its definition reads, one entry at a time: the read-ahead must not change it. */
function reference(dir: string): string {
  const hash = createHash("sha256");
  const field = (b: Buffer): void => {
    hash.update(`${b.length}:`);
    hash.update(b);
  };
  const walk = (rel: string): void => {
    const names = readdirSync(join(dir, rel)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const r = rel === "" ? name : `${rel}/${name}`;
      const p = join(dir, r);
      const st = lstatSync(p);
      field(Buffer.from(r));
      if (st.isSymbolicLink()) {
        field(Buffer.from("l"));
        field(readlinkSync(p, { encoding: "buffer" }));
      } else if (st.isDirectory()) {
        field(Buffer.from("d"));
        walk(r);
      } else {
        field(Buffer.from((st.mode & 0o111) !== 0 ? "x" : "f"));
        field(readFileSync(p));
      }
    }
  };
  walk("");
  return hash.digest("hex");
}

function context(): string {
  const dir = tempDir("env-checksum");
  mkdirSync(join(dir, "data/nested/deeper"), { recursive: true });
  mkdirSync(join(dir, "empty"));
  writeFileSync(join(dir, "Dockerfile"), "FROM scratch\nCOPY data/ /app/data/\n");
  writeFileSync(join(dir, "run.sh"), "#!/bin/sh\necho hi\n");
  chmodSync(join(dir, "run.sh"), 0o755);
  for (let i = 0; i < 60; i++)
    writeFileSync(join(dir, `data/part-${String(i).padStart(2, "0")}.csv`), `id,v\n${i},${i * i}\n`);
  writeFileSync(
    join(dir, "data/nested/deeper/blob.bin"),
    Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256)),
  );
  // Over the read-ahead size: read when its turn comes, hashed in its place.
  writeFileSync(join(dir, "data/big.bin"), Buffer.alloc(5 * 1024 * 1024, 7));
  writeFileSync(join(dir, "data/zero.txt"), "");
  symlinkSync("part-01.csv", join(dir, "data/latest.csv"));
  symlinkSync("/nowhere/at/all", join(dir, "dangling"));
  return dir;
}

describe("envChecksum", () => {
  it("is the entry-by-entry definition's digest, over files, folders, links and a big file", async () => {
    const dir = context();
    expect(await envChecksum(dir)).toBe(reference(dir));
  });

  it("changes with one byte, one executable bit and one link target", async () => {
    const dir = context();
    const before = await envChecksum(dir);
    writeFileSync(join(dir, "data/part-59.csv"), "id,v\n59,3482\n");
    const byte = await envChecksum(dir);
    chmodSync(join(dir, "data/part-00.csv"), 0o755);
    const mode = await envChecksum(dir);
    unlinkSync(join(dir, "data/latest.csv"));
    symlinkSync("part-02.csv", join(dir, "data/latest.csv"));
    const target = await envChecksum(dir);
    expect(new Set([before, byte, mode, target]).size).toBe(4);
    expect(target).toBe(reference(dir));
  });
});
