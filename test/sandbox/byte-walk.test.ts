import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childPathsBytes } from "../../src/core/byte-paths.js";
import { apparentBytesOver } from "../../src/runner/continuation.js";
import { removeTree } from "../../src/sandbox/remove-tree.js";
import { chownTree } from "../../src/sandbox/sandbox-user.js";
import { diskUsage } from "../../src/sandbox/storage.js";

/** A folder named by bytes that are not UTF-8, holding `bytes` of data, under a fresh folder. */
function hiddenUnderBadName(bytes: number): string {
  const root = mkdtempSync(join(tmpdir(), "longhaul-bytes-"));
  const bad = Buffer.concat([Buffer.from(`${root}/bad`), Buffer.from([0xff, 0xfe]), Buffer.from("dir")]);
  mkdirSync(bad);
  writeFileSync(Buffer.concat([bad, Buffer.from("/big")]), Buffer.alloc(bytes, 1));
  return root;
}

describe("walks by bytes", () => {
  it("lists a name that is not UTF-8 as a path that exists", () => {
    const root = hiddenUnderBadName(10);
    const [only] = childPathsBytes(root);
    expect(only?.subarray(-5)).toEqual(Buffer.from([0xff, 0xfe, 0x64, 0x69, 0x72]));
  });

  it("counts data under a folder whose name is not UTF-8 toward the disk quota and the copy cap", () => {
    const root = hiddenUnderBadName(4 * 1024 * 1024);
    expect(diskUsage(root)).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    expect(apparentBytesOver(root, 1024 * 1024)).toBe(true);
  });

  it("measures a tree deeper than the host can name, neither skipping it nor calling it endless", () => {
    const root = mkdtempSync(join(tmpdir(), "longhaul-deep-"));
    // 25 levels of 200-byte names made by relative names: past PATH_MAX from the host.
    const made = spawnSync(
      "bash",
      [
        "-c",
        "d=$(printf 'd%.0s' $(seq 200)); for i in $(seq 25); do mkdir $d && cd $d; done; head -c 2000000 /dev/urandom > f",
      ],
      { cwd: root },
    );
    expect(made.status).toBe(0);
    const used = diskUsage(root);
    expect(used).toBeGreaterThanOrEqual(2_000_000);
    expect(used).toBeLessThan(4_000_000);
    removeTree(root);
  });

  it.runIf(process.getuid?.() === 0)(
    "gives the sandbox's uid the files under a folder whose name is not UTF-8",
    () => {
      const root = hiddenUnderBadName(10);
      chownTree(root, 54321, 54321);
      const bad = Buffer.concat([
        Buffer.from(`${root}/bad`),
        Buffer.from([0xff, 0xfe]),
        Buffer.from("dir/big"),
      ]);
      expect(lstatSync(bad).uid).toBe(54321);
    },
  );
});
