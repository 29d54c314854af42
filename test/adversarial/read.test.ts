import { READ_ATTACKS } from "./attacks-read.js";
import { describeAttacks } from "./suite.js";

describeAttacks("reading what the agent must not see", READ_ATTACKS);
