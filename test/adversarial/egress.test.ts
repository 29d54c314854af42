import { EGRESS_ATTACKS, ESCAPE_ATTACK } from "./attacks-resource.js";
import { describeAttacks, expectRenderedSafely } from "./suite.js";

describeAttacks("network and rendering", [
  ...EGRESS_ATTACKS,
  { ...ESCAPE_ATTACK, check: expectRenderedSafely },
]);
