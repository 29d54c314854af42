import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { IMAGE_ATTACKS } from "./attacks-image.js";
import { NOT_YET_ATTACKED } from "./providers.js";
import { describeAttacks } from "./suite.js";

// Where an image task's verifier runs is decided by each provider (under docker: a fresh
// container of the image), and these attacks take a few seconds each, so they run against docker
// in every test run; the rest of the suite runs against docker with LONGHAUL_ATTACK_DOCKER=1,
// which puts docker in image.test.ts and leaves this file empty.
if (NOT_YET_ATTACKED.docker !== undefined) {
  describeAttacks("attacks on an image task's root file system", IMAGE_ATTACKS, {
    providers: [{ name: "docker", make: () => getSandboxProvider("docker") }],
  });
}
