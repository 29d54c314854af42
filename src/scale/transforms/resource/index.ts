import type { Transform } from "../../types.js";

/** The resource transforms of the library, in documentation order. */
export const RESOURCE_TRANSFORMS: readonly Transform<unknown>[] = [];
