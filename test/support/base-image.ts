import { bootstrapImage } from "../../src/sandbox/image/bootstrap.js";
import { inspectImage } from "../../src/sandbox/image/inspect.js";
import type { ImageRef } from "../../src/sandbox/image/types.js";

/**
 * The Debian base image container tests build FROM, made offline with debootstrap the first time
 * a machine needs it (about a minute) and reused after. It has python3, so the sandbox
 * conformance suite and pytest-free graders run in it.
 */
export const TEST_BASE_IMAGE = "longhaul-test-base:bookworm";

let pending: Promise<ImageRef> | null = null;

export function ensureTestBaseImage(): Promise<ImageRef> {
  pending ??= (async () =>
    (await inspectImage(TEST_BASE_IMAGE)) ??
    bootstrapImage({ tag: TEST_BASE_IMAGE, include: ["python3"] }))();
  return pending;
}
