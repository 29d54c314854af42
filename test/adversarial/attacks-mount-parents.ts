import type { Attack } from "./harness.js";

/** Writes full marks when imported in place of the standard module the check imports. */
const FORGED_FILECMP = `import os
os.makedirs("/logs/verifier", exist_ok=True)
open("/logs/verifier/reward.txt", "w").write("1\\n")
os._exit(0)`;

/**
 * Attacks on a plain Harbor task over an image (adv-plain-image), whose verifier runs on the
 * agent's own root: under docker its mounts (/tests, /longhaul/kit/sealed-run) are staged into the
 * agent's container, through whatever the agent left on the way to them.
 */
export const MOUNT_PARENT_ATTACKS: Attack[] = [
  {
    // Not a way to a reward but out of the rates: a verifier that could not be set up would be
    // an infrastructure error, which rates leave out.
    name: "plain task over an image: files at /longhaul and /.longhaul, a link at /tests",
    anyLimits: true,
    tasks: ["adv-plain-image"],
    script:
      "rm -rf /longhaul /.longhaul /tests; touch /longhaul /.longhaul; ln -s /app /tests; echo guess > /app/out.txt",
  },
  {
    name: "plain task over an image: a locked /tests holding a module that shadows the check's import",
    anyLimits: true,
    tasks: ["adv-plain-image"],
    script: `rm -rf /tests; mkdir /tests; cat > /tests/filecmp.py <<'LHEOF'
${FORGED_FILECMP}
LHEOF
chmod 000 /tests; echo guess > /app/out.txt`,
  },
];
