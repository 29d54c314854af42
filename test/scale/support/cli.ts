import { Command } from "commander";
import { vi } from "vitest";
import { registerScaleCommand } from "../../../src/cli/commands/scale.js";
import { exitCodeFor } from "../../../src/cli/run-cli.js";

/**
 * Runs `longhaul scale ...` in this process (so transforms a test registered are there), with
 * stdout and stderr captured and the exit code the real CLI would give.
 */
export async function cli(
  args: string[],
  register: (program: Command) => void = registerScaleCommand,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const so = vi.spyOn(process.stdout, "write").mockImplementation((s) => {
    out.push(String(s));
    return true;
  });
  const se = vi.spyOn(process.stderr, "write").mockImplementation((s) => {
    err.push(String(s));
    return true;
  });
  const before = process.exitCode;
  process.exitCode = undefined;
  let code = 0;
  try {
    const program = new Command("longhaul").exitOverride();
    program.configureOutput({
      writeErr: (s) => process.stderr.write(s),
      writeOut: (s) => process.stdout.write(s),
    });
    register(program);
    await program.parseAsync(["node", "longhaul", ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    code = exitCodeFor(e);
  } finally {
    so.mockRestore();
    se.mockRestore();
    process.exitCode = before;
  }
  return { code, stdout: out.join(""), stderr: err.join("") };
}
