import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { IMAGE_ATTACKS } from "./attacks-image.js";
import { MOUNT_PARENT_ATTACKS } from "./attacks-mount-parents.js";
import { NOT_YET_ATTACKED, type ProviderConfig } from "./providers.js";
import { describeAttacks } from "./suite.js";

// Where a verifier runs when the agent may change the system is decided by each provider (under
// docker: a fresh container of the image), and these attacks take a few seconds each, so they run
// against docker in every test run; the rest of the suite runs against docker with
// LONGHAUL_ATTACK_DOCKER=1, which also puts docker in image.test.ts (so they are not repeated here).
const docker: ProviderConfig[] = [{ name: "docker", make: () => getSandboxProvider("docker") }];
if (NOT_YET_ATTACKED.docker !== undefined)
  describeAttacks("attacks on an image task's root file system", IMAGE_ATTACKS, { providers: docker });

// Docker runs a host task over its default image, whose system the agent may change as well.
const forgeries = IMAGE_ATTACKS.filter((a) => /\.pth file|replaces python3/.test(a.name)).map((a) => ({
  ...a,
  name: a.name.replace("over an image", "on a host task (docker's default image)"),
  tasks: ["adv-vault"],
}));
describeAttacks("attacks on a host task's root file system", forgeries, { providers: docker });

// A plain Harbor task's verifier runs on the agent's own root, where docker copies its mounts in
// (bwrap mounts them): what the agent left on the way to them is attacked under docker in every run.
if (NOT_YET_ATTACKED.docker !== undefined)
  describeAttacks("attacks on where a plain task's verifier mounts go", MOUNT_PARENT_ATTACKS, {
    providers: docker,
  });
