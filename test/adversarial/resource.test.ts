import { ESCAPE_ATTACK, RESOURCE_ATTACKS } from "./attacks-resource.js";
import { describeAttacks, expectRenderedSafely } from "./suite.js";

describeAttacks("resources, network and rendering", [
  ...RESOURCE_ATTACKS,
  { ...ESCAPE_ATTACK, check: expectRenderedSafely },
]);
