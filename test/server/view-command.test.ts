import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerViewCommand } from "../../src/cli/commands/view.js";
import { UserError } from "../../src/core/index.js";
import { startViewer } from "../../src/server/index.js";
import { JobStore } from "../../src/store/index.js";

function program(): Command {
  const p = new Command();
  p.exitOverride();
  p.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  registerViewCommand(p);
  return p;
}

describe("longhaul view", () => {
  it("refuses a folder without a job index instead of creating one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-view-empty-"));
    try {
      await expect(program().parseAsync(["node", "longhaul", "view", "--jobs-dir", dir])).rejects.toThrow(
        UserError,
      );
      await expect(program().parseAsync(["node", "longhaul", "view", "--jobs-dir", dir])).rejects.toThrow(
        /no longhaul\.db/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a port that is not a port", async () => {
    await expect(program().parseAsync(["node", "longhaul", "view", "--port", "http"])).rejects.toThrow(
      /--port must be a whole number/,
    );
    await expect(program().parseAsync(["node", "longhaul", "view", "--port", "70000"])).rejects.toThrow(
      /at most 65535/,
    );
  });

  it("refuses a port another program listens on as a user error, in one line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-view-busy-"));
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, "127.0.0.1", done));
    const port = (busy.address() as AddressInfo).port;
    try {
      await (await JobStore.open(dir)).close();
      const run = program().parseAsync([
        "node",
        "longhaul",
        "view",
        "--jobs-dir",
        dir,
        "--port",
        String(port),
      ]);
      await expect(run).rejects.toThrow(UserError);
      await expect(startViewer({ jobsDir: dir, port }).catch((e: Error) => e.message)).resolves.toBe(
        `127.0.0.1:${port} is already in use; choose another port (0 picks a free one)`,
      );
    } finally {
      busy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
