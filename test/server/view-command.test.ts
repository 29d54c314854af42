import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerViewCommand } from "../../src/cli/commands/view.js";
import { UserError } from "../../src/core/index.js";

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
});
