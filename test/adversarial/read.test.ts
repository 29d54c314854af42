import { READ_ATTACKS } from "./attacks-read.js";
import { describeAttacks } from "./suite.js";

// What a program can read depends on namespaces and mounts, never on the resource limits.
describeAttacks("reading what the agent must not see", READ_ATTACKS, { anyLimits: true });
