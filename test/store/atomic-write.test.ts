import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../runner/helpers.js";

const run = promisify(execFile);
const WRITER = pathToFileURL(resolve(import.meta.dirname, "../../src/store/atomic-write.ts")).href;

describe("writeFileAtomic on a disk that takes only part of the file", () => {
  it("fails and keeps the old file whole, never renaming a torn one into place", async () => {
    const dir = tempDir("atomic");
    const path = join(dir, "result.json");
    writeFileSync(path, "old\n");
    const code = `import { writeFileAtomic } from ${JSON.stringify(WRITER)};
try { writeFileAtomic(${JSON.stringify(path)}, "x".repeat(3000)); console.log("written"); }
catch (e) { console.log("failed", e.code); }`;
    // A file-size limit of 1 KiB (SIGXFSZ ignored) makes the kernel accept the first 1024 bytes
    // and refuse the rest, as a nearly full disk does.
    const script = `ulimit -f 1; trap '' XFSZ; exec "${process.execPath}" --import tsx --input-type=module -e "$0"`;
    const { stdout } = await run("bash", ["-c", script, code], {
      cwd: resolve(import.meta.dirname, "../.."),
    });
    expect(stdout.trim()).toBe("failed EFBIG");
    expect(readFileSync(path, "utf8")).toBe("old\n");
    // No temporary file is left holding the space.
    expect(readdirSync(dir)).toEqual(["result.json"]);
  }, 20_000);
});
