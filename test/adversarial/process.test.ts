import { PROCESS_ATTACKS } from "./attacks-process.js";
import { describeAttacks } from "./suite.js";

describeAttacks("processes, signals and time", PROCESS_ATTACKS);
