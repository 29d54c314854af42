import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import { describeSandboxConformance } from "../../src/sandbox/conformance.js";
import { plantHostSecrets } from "./host-secrets-fixture.js";

// Planted before any provider scans the host for files to mask.
const planted = plantHostSecrets();

describeSandboxConformance("bwrap", () => new BwrapProvider(), { hostSecrets: planted.secrets });
// The fallback used where cgroups are not writable (containers) must hold the same limits.
describeSandboxConformance("bwrap (rlimit limits)", () => new BwrapProvider({ limits: "rlimit" }), {
  hostSecrets: planted.secrets,
});
