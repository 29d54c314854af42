import { BASE_IMAGE_TAG, ensureBaseImage } from "../../src/sandbox/image/base-image.js";
import type { ImageRef } from "../../src/sandbox/image/types.js";

/**
 * The Debian base image container tests build FROM: longhaul's own base image, made offline with
 * debootstrap the first time a machine needs it and reused after (the bundled tasks use it too).
 */
export const TEST_BASE_IMAGE = BASE_IMAGE_TAG;

export function ensureTestBaseImage(): Promise<ImageRef> {
  return ensureBaseImage();
}
