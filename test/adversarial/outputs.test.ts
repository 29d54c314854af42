import { OUTPUT_ATTACKS } from "./attacks-outputs.js";
import { describeAttacks } from "./suite.js";

describeAttacks("links and FIFOs as the output files a grader reads back", OUTPUT_ATTACKS);
