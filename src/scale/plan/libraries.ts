import { CHANNEL_STEPS, type ChannelStepName } from "../channel/steps.js";
import { listTransforms } from "../transforms/registry.js";
import type { Transform } from "../types.js";
import type { LibraryName } from "./schema.js";

/**
 * The `no-xref-prep` ablation: the full library without cross-resource references
 * (`cross-reference`: a file's location kept in a resource of another type) and preparation
 * steps (`prepare-step`: files only a placed script exports), so a comparison shows what those
 * two mechanisms add to difficulty.
 */
export const NO_XREF_PREP_EXCLUDED = ["cross-reference", "prepare-step"] as const;

/**
 * A program task's channel has no preparation step (every step is undone with standard tools),
 * and its one reference step is `manifest` (a file naming where the input's files went), so
 * that is what `no-xref-prep` leaves out of the channel.
 */
export const NO_XREF_PREP_CHANNEL_EXCLUDED: readonly ChannelStepName[] = ["manifest"];

/** Whether a transform belongs to a library. */
export function inLibrary(t: Transform<unknown>, library: LibraryName): boolean {
  switch (library) {
    case "basic":
      return t.basic;
    case "no-xref-prep":
      return !(NO_XREF_PREP_EXCLUDED as readonly string[]).includes(t.name);
    case "full":
      return true;
  }
}

/** Every registered transform of a library, by name. */
export function libraryTransforms(library: LibraryName): Transform<unknown>[] {
  return listTransforms().filter((t) => inLibrary(t, library));
}

/** The channel steps of a library for a program task (before the input-kind filter). */
export function libraryChannelSteps(
  library: LibraryName,
  basic: readonly ChannelStepName[],
): ChannelStepName[] {
  switch (library) {
    case "basic":
      return [...basic];
    case "no-xref-prep":
      return CHANNEL_STEPS.filter((n) => !NO_XREF_PREP_CHANNEL_EXCLUDED.includes(n));
    case "full":
      return [...CHANNEL_STEPS];
  }
}
