import { ANSWER_FORMAT } from "./answer.js";

export const TERMINUS_SYSTEM = `You are working in a Linux terminal (a tmux session) to complete a task.
Each turn you see the new terminal output and answer with exactly one JSON object, nothing else:
${ANSWER_FORMAT}
- "keystrokes" are typed into the terminal verbatim; end a command with "\\n" to run it. A lone tmux key
  name such as "C-c", "C-d", "Escape" or "Tab" presses that key.
- "duration" is how many seconds to wait for the command before looking again (0.1 for instant
  commands, longer for builds or downloads). You can always wait more on the next turn with no commands.
- Set "task_complete" to true only when the task is fully done; you will be asked to confirm once.`;

export function firstMessage(instruction: string, screen: string): string {
  return `Task:\n${instruction}\n\nCurrent terminal:\n${screen}`;
}

export function resumeMessage(instruction: string, summary: string, screen: string): string {
  return `Task:\n${instruction}\n\nSummary of your work so far (earlier turns were removed to save space):\n${summary}\n\nCurrent terminal:\n${screen}`;
}

export function parseErrorMessage(error: string): string {
  return `Your previous answer could not be used: ${error}.\nAnswer with exactly one JSON object of this form:\n${ANSWER_FORMAT}`;
}

export function confirmMessage(output: string): string {
  return `New terminal output:\n${output}\n\nYou marked the task complete. This ends your session and the work will be graded. If you are sure, answer again with "task_complete": true; otherwise continue working.`;
}

export function outputMessage(output: string): string {
  return output.length > 0 ? `New terminal output:\n${output}` : "New terminal output: (none)";
}
