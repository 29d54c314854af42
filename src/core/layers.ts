/**
 * The intended dependency order of the top-level folders under src/, lowest first. A folder may
 * import from its own layer or any layer below; imports between folders of one layer must not
 * form a cycle. Files directly in src/ (package entry points, the config file and plugin loader)
 * sit above every layer but the front ends: only the last layer may import them, and they never
 * import it (the cycle check sees to that). test/layering.test.ts checks the whole tree against this list; docs cite it.
 */
export const LAYERS = [
  // Shared kernel: errors, ids, seeded randomness, trial-result schema, TOML and package helpers.
  ["core"],
  // Domain libraries: task folders, rubrics and rewards, sandboxes, model clients, stress cases,
  // the per-trial model gateway.
  ["task", "grading", "sandbox", "models", "stress", "gateway"],
  // Running trials and keeping their results.
  ["agents", "runner", "store"],
  // What is built on runs and stored results.
  ["analysis", "report", "scale", "world", "distributed"],
  // Front ends.
  ["cli", "server"],
] as const satisfies readonly (readonly string[])[];

export type LayerFolder = (typeof LAYERS)[number][number];

/** The layer index of a top-level folder, or undefined when the folder is not placed. */
export function layerOf(folder: string): number | undefined {
  const index = LAYERS.findIndex((layer) => (layer as readonly string[]).includes(folder));
  return index < 0 ? undefined : index;
}
