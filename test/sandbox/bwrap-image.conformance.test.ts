import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import { describeSandboxConformance } from "../../src/sandbox/conformance.js";
import { ensureRootfs } from "../../src/sandbox/image/rootfs-cache.js";
import { ensureTestBaseImage } from "../support/base-image.js";

// Every check of the contract, with every sandbox made over the Debian test base image. No host
// secrets are planted here: another test file's sandboxes mask the host's root-only files from a
// scan, and files planted and removed meanwhile would break them. bwrap-image.test.ts checks
// that host files are out of reach over an image.
const image = await ensureTestBaseImage();
await ensureRootfs(image);

describeSandboxConformance("bwrap over an image", () => new BwrapProvider({ rootfsFor: ensureRootfs }), {
  spec: { image },
  imageRoot: true,
});
