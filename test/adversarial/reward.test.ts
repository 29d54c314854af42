import { REWARD_ATTACKS } from "./attacks-reward.js";
import { describeAttacks } from "./suite.js";

describeAttacks("forging or smuggling the reward", REWARD_ATTACKS);
