import type { Transform } from "../../types.js";

/** The relation transforms of the library, in documentation order. */
export const RELATION_TRANSFORMS: readonly Transform<unknown>[] = [];
