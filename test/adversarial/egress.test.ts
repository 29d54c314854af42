import { EGRESS_ATTACKS, ESCAPE_ATTACK } from "./attacks-resource.js";
import { describeAttacks, expectRenderedSafely } from "./suite.js";

// Network namespaces and output escaping do not depend on the resource limits.
describeAttacks(
  "network and rendering",
  [...EGRESS_ATTACKS, { ...ESCAPE_ATTACK, check: expectRenderedSafely }],
  {
    anyLimits: true,
  },
);
