import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import { describeSandboxConformance } from "../../src/sandbox/conformance.js";
import { ensureTestBaseImage } from "../support/base-image.js";
import { testRootfsFor } from "../support/rootfs.js";

// Every check of the contract, with every sandbox made over the Debian test base image. No host
// secrets are planted here: another test file's sandboxes mask the host's root-only files from a
// scan, and files planted and removed meanwhile would break them. bwrap-image.test.ts checks
// that host files are out of reach over an image.
const image = await ensureTestBaseImage();
await testRootfsFor(image);

describeSandboxConformance("bwrap over an image", () => new BwrapProvider({ rootfsFor: testRootfsFor }), {
  spec: { image },
});
