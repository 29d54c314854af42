import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "./errors.js";
import { checkOutFolder, readUserText } from "./user-files.js";

const dir = mkdtempSync(join(tmpdir(), "longhaul-test-user-files-"));

describe("readUserText", () => {
  it("reads a regular file and names what stands in for one", () => {
    writeFileSync(join(dir, "ok.txt"), "hello\n");
    expect(readUserText(join(dir, "ok.txt"))).toBe("hello\n");
    mkdirSync(join(dir, "folder"));
    execFileSync("mkfifo", [join(dir, "fifo")]);
    const cases: [string, RegExp][] = [
      ["missing", /: no such file or folder$/],
      ["folder", /: is a folder, where a file is expected$/],
      // A FIFO without a writer: refused at once, never waited on.
      ["fifo", /: is a FIFO, where a regular file is expected$/],
    ];
    for (const [name, message] of cases) {
      const read = () => readUserText(join(dir, name));
      expect(read, name).toThrow(UserError);
      expect(read, name).toThrow(message);
    }
    expect(() => readUserText("/dev/null")).toThrow(/is a device/);
  });
});

describe("checkOutFolder", () => {
  it("accepts a folder or a missing one, and names a file in the way", () => {
    writeFileSync(join(dir, "afile"), "x");
    expect(() => checkOutFolder(join(dir, "new", "deeper"), "--out")).not.toThrow();
    expect(() => checkOutFolder(dir, "--out")).not.toThrow();
    expect(() => checkOutFolder(join(dir, "afile"), "--out")).toThrow(
      /it is a file, where a folder is expected/,
    );
    expect(() => checkOutFolder(join(dir, "afile", "x"), "--out")).toThrow(/afile is a file/);
  });
});
