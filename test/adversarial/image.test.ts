import { IMAGE_ATTACKS } from "./attacks-image.js";
import { describeAttacks } from "./suite.js";

describeAttacks("attacks on an image task's root file system", IMAGE_ATTACKS);
