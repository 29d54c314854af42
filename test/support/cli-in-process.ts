import { Command } from "commander";
import { vi } from "vitest";
import { exitCodeFor } from "../../src/cli/run-cli.js";
import type { CliResult } from "./cli-process.js";

/**
 * Runs one `longhaul` command in this process: the command as `register` builds it, its action,
 * and the exit code and stderr line the CLI gives for what it throws (exitCodeFor), with stdout
 * and stderr captured. It spares a process start (a second of CPU for `run`), and it sees what a
 * test registered in this process. What it leaves out is main.ts's part: the config file and
 * plugins a command line may name, and the process's own exit; a test that claims those uses
 * runCli (cli-process.ts).
 */
export async function runCliInProcess(
  args: string[],
  register: (program: Command) => void,
): Promise<CliResult> {
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
