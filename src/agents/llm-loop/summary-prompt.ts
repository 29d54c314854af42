/**
 * What the loop asks a model whose context is nearly full. A file of its own: the SFT export
 * reads it too, and importing it from loop.ts would load the model SDKs at every `report` and
 * `export` start.
 */
export const SUMMARY_PROMPT =
  "Your context is nearly full. Write a summary of the work so far for yourself to continue from: " +
  "what the task is, what you have done, what you found (paths, commands, errors), what is left and " +
  "what you planned next. Answer in plain text, not JSON, and call no tools.";
