import { afterAll } from "vitest";
import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import { describeSandboxConformance } from "../../src/sandbox/conformance.js";
import { ensureTestBaseImage } from "../support/base-image.js";
import { testRootfsFor } from "../support/rootfs.js";
import { plantHostSecrets } from "./host-secrets-fixture.js";

// Every check of the contract, with every sandbox made over the Debian test base image. The
// host's root-only files must stay out of reach there too (the host's /etc is not shown at all).
const planted = plantHostSecrets();
afterAll(() => planted.remove());
const image = await ensureTestBaseImage();
await testRootfsFor(image);

describeSandboxConformance("bwrap over an image", () => new BwrapProvider({ rootfsFor: testRootfsFor }), {
  spec: { image },
  hostSecrets: planted.secrets,
});
