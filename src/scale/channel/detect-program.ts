import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { COMMAND, type InputArg, type InputKind } from "./steps.js";

/** A program a task's grader runs, as detectProgram finds it (or a parent's channel declares it). */
export interface DetectedProgram {
  program: string;
  inputIndex: number;
  inputKind: InputKind;
  /** How the kit finds the input in a call (absent: at inputIndex, right after the program). */
  inputArg?: InputArg;
  /** The subcommands whose calls read the input (absent: every call); see channelDeclSchema. */
  commands?: string[];
}

/**
 * A bundled-style program task: a Python grader under tests/ that runs the agent's program with
 * `run(["python3", VAR, ...])`, where `VAR = os.path.join(WORK, "NAME")`. Returns the program's
 * path in the sandbox and where its input is, or null:
 * - `run(["python3", TOOL, d, ...])` (the graders name a folder input `d`): the folder at argv
 *   index 2, as the first program tasks were scaled;
 * - an interactive program the grader talks to over its standard input
 *   (`CMD = sealed_argv(["python3", os.path.join(WORK, "NAME")])`): a stream input;
 * - any other such call (a subcommand first, another variable name, argv built from a list): the
 *   first argument after the program that is an absolute path of an existing file or folder
 *   (`first-path`), a file in some calls and a folder in others (`path`).
 * - a grader that runs the program from a batch runner of its own and hands the steps to the
 *   kit's `present_steps(steps, ro, commands=("NAME", ...))`: `first-path`, `path`, only in
 *   calls of those subcommands (`batchProgram`).
 * A wrong guess is caught by the verifier: the reference solution then fails in the child, and
 * the candidate is rejected. A grader that runs the program only from a script of its own (a
 * driver the sealed run starts) without `present_steps` has no call the kit can see: null.
 */
export function detectProgram(testsDir: string, workdir: string): DetectedProgram | null {
  if (!existsSync(testsDir)) return null;
  const texts = readdirSync(testsDir)
    .sort()
    .filter((name) => name.endsWith(".py") && name !== "lh.py")
    .map((name) => readFileSync(join(testsDir, name), "utf8"));
  for (const text of texts) {
    const tool = /^TOOL = os\.path\.join\(WORK, "([^"/]+)"\)/m.exec(text);
    if (tool?.[1] !== undefined && /run\(\["python3", TOOL, d\b/.test(text)) {
      return { program: posix.join(workdir, tool[1]), inputIndex: 2, inputKind: "folder" };
    }
  }
  for (const text of texts) {
    const interactive = /sealed_argv\(\["python3", os\.path\.join\(WORK, "([^"/]+)"\)\]\)/.exec(text);
    if (interactive?.[1] !== undefined) {
      return { program: posix.join(workdir, interactive[1]), inputIndex: 1, inputKind: "stream" };
    }
  }
  for (const text of texts) {
    const batch = batchProgram(text, workdir);
    if (batch !== null) return batch;
  }
  for (const text of texts) {
    const vars = workdirPrograms(text);
    // The first call of a workdir program, in the order the grader's text has them.
    for (const call of text.matchAll(/run\(\["python3", ([A-Z][A-Z0-9_]*)\s*[,\]]/g)) {
      const name = vars.get(call[1] ?? "");
      if (name !== undefined) {
        return {
          program: posix.join(workdir, name),
          inputIndex: 2,
          inputKind: "path",
          inputArg: "first-path",
        };
      }
    }
  }
  return null;
}

function workdirPrograms(text: string): Map<string, string> {
  return new Map(
    [...text.matchAll(/^([A-Z][A-Z0-9_]*) = os\.path\.join\(WORK, "([^"/]+)"\)/gm)].map((m) => [
      m[1] ?? "",
      m[2] ?? "",
    ]),
  );
}

/**
 * A grader that runs the program only from its own batch runner, and says so: it passes the
 * steps through the kit's `present_steps(..., commands=("chunk", "restore", ...))`. The program
 * is the workdir program its steps start (`["python3", VAR]`); the input is the first existing
 * path of a call of one of those subcommands.
 */
function batchProgram(text: string, workdir: string): DetectedProgram | null {
  const call = /present_steps\(.*?commands=\(([^)]*)\)/.exec(text);
  if (call === null) return null;
  const commands = [...(call[1] ?? "").matchAll(/"([^"\\]+)"/g)].map((m) => m[1] ?? "");
  // A name the channel could not declare (spaces, quotes): not a subcommand longhaul can word.
  if (!commands.every((c) => COMMAND.test(c))) return null;
  const vars = workdirPrograms(text);
  for (const start of text.matchAll(/\["python3", ([A-Z][A-Z0-9_]*)\s*[,\]]/g)) {
    const name = vars.get(start[1] ?? "");
    if (name !== undefined && commands.length > 0) {
      return {
        program: posix.join(workdir, name),
        inputIndex: 2,
        inputKind: "path",
        inputArg: "first-path",
        commands,
      };
    }
  }
  return null;
}
