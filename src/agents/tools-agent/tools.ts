import { z } from "zod";
import { toolSpec } from "../../models/tool-spec.js";

/** Declared without `execute`: the loop runs each call itself so it can time and record it. */
export const AGENT_TOOLS = {
  exec: toolSpec({
    description: "Run a bash command in the task environment and return its exit code, stdout and stderr.",
    inputSchema: z.object({
      command: z.string().min(1),
      timeout_sec: z
        .number()
        .positive()
        .optional()
        .describe("Kill the command after this many seconds (default 120)."),
    }),
  }),
  read_file: toolSpec({
    description: "Return the contents of a text file.",
    inputSchema: z.object({ path: z.string().min(1) }),
  }),
  write_file: toolSpec({
    description: "Create or overwrite a file with the given contents (parent folders are created).",
    inputSchema: z.object({ path: z.string().min(1), content: z.string() }),
  }),
  finish: toolSpec({
    description: "Declare the task complete. This ends the session and the work is graded.",
    inputSchema: z.object({ summary: z.string().optional() }),
  }),
};

export const execInput = z.object({
  command: z.string().min(1),
  timeout_sec: z.number().positive().optional(),
});
export const readInput = z.object({ path: z.string().min(1) });
export const writeInput = z.object({ path: z.string().min(1), content: z.string() });

export const TOOLS_SYSTEM = `You are working in a Linux environment to complete a task. Act only through the tools:
exec (run a bash command), read_file, write_file, and finish (call it once the task is fully done).
Each tool result shows what happened; long outputs are cut in the middle. Work step by step and check
your work before calling finish.`;
