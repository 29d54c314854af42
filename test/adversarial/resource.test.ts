import { RESOURCE_ATTACKS } from "./attacks-resource.js";
import { describeAttacks } from "./suite.js";

// Network and rendering attacks are in egress.test.ts: two files, so the suite's two workers share them.
describeAttacks("resources", RESOURCE_ATTACKS);
