import type { Transform } from "../../types.js";
import { backfillTransform } from "./backfill.js";
import { crossReferenceTransform } from "./cross-reference.js";
import { decoyRecordsTransform } from "./decoy-records.js";
import { fkNormalizeTransform } from "./fk-normalize.js";
import { manifestTransform } from "./manifest.js";
import { nestedManifestTransform } from "./nested-manifest.js";
import { pointerChainTransform } from "./pointer-chain.js";
import { versionsTransform } from "./versions.js";

/** The relation transforms of the library, in documentation order. */
export const RELATION_TRANSFORMS: readonly Transform<unknown>[] = [
  manifestTransform,
  nestedManifestTransform,
  crossReferenceTransform,
  pointerChainTransform,
  fkNormalizeTransform,
  versionsTransform,
  decoyRecordsTransform,
  backfillTransform,
] as Transform<unknown>[];
