import { LINK_ATTACKS } from "./attacks-links.js";
import { describeAttacks } from "./suite.js";

describeAttacks("links from the workdir into the verifier's files", LINK_ATTACKS);
