import { WALK_ATTACKS } from "./attacks-walk.js";
import { describeAttacks } from "./suite.js";

describeAttacks("workdirs shaped against the host's link walk", WALK_ATTACKS);
