import type { Transform } from "../../types.js";
import { indexRepairTransform } from "./index-repair.js";
import { localServiceTransform } from "./local-service.js";
import { lockFileTransform } from "./lock-file.js";
import { prepareStepTransform } from "./prepare-step.js";
import { schemaMigrationTransform } from "./schema-migration.js";
import { stagedKeysTransform } from "./staged-keys.js";
import { unlockKeyTransform } from "./unlock-key.js";

/** The operation transforms of the library, in documentation order. */
export const OPERATION_TRANSFORMS: readonly Transform<unknown>[] = [
  prepareStepTransform,
  unlockKeyTransform,
  indexRepairTransform,
  schemaMigrationTransform,
  localServiceTransform,
  stagedKeysTransform,
  lockFileTransform,
] as Transform<unknown>[];
