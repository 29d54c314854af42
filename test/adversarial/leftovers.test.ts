import { LEFTOVER_ATTACKS } from "./attacks-leftovers.js";
import { describeAttacks } from "./suite.js";

describeAttacks("what the agent leaves behind for the host to copy, walk and remove", LEFTOVER_ATTACKS);
