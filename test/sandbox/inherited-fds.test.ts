import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";

function collect(stream: Readable | null): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    stream?.on("data", (c: Buffer) => {
      text += c.toString();
    });
    stream?.on("close", () => resolve(text));
  });
}

describe("descriptors the host process was started with", () => {
  it("never reach a sandbox: a command there cannot write into the host's pipe", async () => {
    const root = mkdtempSync(join(tmpdir(), "longhaul-inherited-fds-"));
    try {
      // Descriptor 200 of the child is a pipe the test reads. Node marks the descriptors it
      // starts with close-on-exec only up to the first gap past 15, so one this high stays
      // inheritable, as a harness's control pipe does.
      const stdio = ["ignore", "pipe", "pipe", ...Array<"ignore">(197).fill("ignore"), "pipe"] as const;
      const child = spawn(
        process.execPath,
        ["--import", "tsx", join(import.meta.dirname, "inherited-fds-child.ts"), root],
        { stdio: [...stdio] },
      );
      const [out, err, host] = await Promise.all([
        collect(child.stdout),
        collect(child.stderr),
        collect((child.stdio as readonly unknown[])[200] as Readable),
        new Promise((r) => child.on("close", r)),
      ]);
      expect(err).toBe("");
      // The host process knew the descriptor for an inherited one; in the sandbox it is
      // /dev/null, so the command's write went nowhere.
      expect(out).toBe("inherited: 200\nwrote\n/dev/null\n");
      expect(host).toBe("");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
