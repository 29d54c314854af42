import { UserError } from "../../core/errors.js";
import type { ImageRef } from "./types.js";

/**
 * PLACEHOLDER (task branch): the image layer replaces this file when merging. The runner calls
 * it once per image task per job: build environment/Dockerfile (or use `dockerImage`) and return
 * the image, streaming build output to `logFile`; null when the task has no image.
 */
export async function taskImage(o: {
  taskName: string;
  envDir: string;
  dockerImage: string | null;
  buildTimeoutSec: number;
  logFile: string;
  onOutput?: (c: Buffer) => void;
}): Promise<ImageRef | null> {
  throw new UserError(`task ${o.taskName}: image tasks need the image layer`);
}
