import type { Transform } from "../../types.js";

/** The operation transforms of the library, in documentation order. */
export const OPERATION_TRANSFORMS: readonly Transform<unknown>[] = [];
