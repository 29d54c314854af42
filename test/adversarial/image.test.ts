import { IMAGE_ATTACKS } from "./attacks-image.js";
import { MOUNT_PARENT_ATTACKS } from "./attacks-mount-parents.js";
import { describeAttacks } from "./suite.js";

describeAttacks("attacks on an image task's root file system", IMAGE_ATTACKS);
describeAttacks("attacks on where a plain task's verifier mounts go", MOUNT_PARENT_ATTACKS);
