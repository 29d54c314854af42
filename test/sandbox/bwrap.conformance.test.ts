import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import { describeSandboxConformance } from "../../src/sandbox/conformance.js";

describeSandboxConformance("bwrap", () => new BwrapProvider());
