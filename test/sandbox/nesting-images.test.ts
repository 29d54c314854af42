import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEALED_RUN_SANDBOX_DIR, sealedRunDir } from "../../src/grading/sealed-run-path.js";
import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";
import type { ImageRef } from "../../src/sandbox/image/types.js";
import type { Sandbox, SandboxProvider, SandboxSpec } from "../../src/sandbox/types.js";
import { ensureTestBaseImage } from "../support/base-image.js";

/**
 * The grader kit's sealed-run inside a task image (bwrap from the image), as the bundled tasks'
 * graders use it: under bwrap over the image, and under docker when the sandbox was made for
 * nesting. The sealed program must not see /tests or the verifier's environment, and a broken
 * nest must fail loudly (exit 125), never run the program unsealed.
 */
const SECRET = "hidden-case-4711";
let root: string;
let image: ImageRef;

beforeAll(async () => {
  image = await ensureTestBaseImage();
  root = mkdtempSync(join(tmpdir(), "longhaul-nesting-test-"));
  mkdirSync(join(root, "tests"));
  writeFileSync(join(root, "tests", "secret"), SECRET);
}, 600_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const providers: [string, () => SandboxProvider][] = [
  ["bwrap over the image", () => new BwrapProvider()],
  ["docker made for nesting", () => new DockerProvider()],
];

describe.each(providers)("sealed-run under %s", (_name, make) => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    const provider = make();
    await provider.check();
    const spec: SandboxSpec = {
      environmentDir: null,
      image,
      nesting: true,
      workdir: "/app",
      memoryMb: 512,
      cpus: 1,
      pidsMax: 256,
      allowInternet: false,
      stateDir: join(root, `state-${Math.random().toString(36).slice(2)}`),
    };
    sandbox = await provider.create(spec);
  }, 300_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it("runs the program nested, away from /tests and the verifier's environment", async () => {
    expect(sandbox.nestingAllowed).not.toBe(false);
    const probe = `cat /tests/secret 2>/dev/null || echo no-tests; echo "seed=\${LONGHAUL_SEED:-none}"; id -u`;
    const r = await sandbox.exec([`${SEALED_RUN_SANDBOX_DIR}/sealed-run`, "--", "/bin/sh", "-c", probe], {
      nestedSandbox: true,
      env: { LONGHAUL_SEED: "12345" },
      mounts: [
        { hostPath: join(root, "tests"), sandboxPath: "/tests", readonly: true },
        { hostPath: sealedRunDir(), sandboxPath: SEALED_RUN_SANDBOX_DIR, readonly: true },
      ],
      timeoutSec: 60,
    });
    expect({ code: r.exitCode, err: r.stderr }).toEqual({ code: 0, err: "" });
    expect(r.stdout.split("\n").slice(0, 3)).toEqual(["no-tests", "seed=none", "0"]);
    // The verifier itself does see them: the nest, not a missing mount, hid them.
    const direct = await sandbox.exec(["cat", "/tests/secret"], {
      nestedSandbox: true,
      mounts: [{ hostPath: join(root, "tests"), sandboxPath: "/tests", readonly: true }],
    });
    expect(direct.stdout).toBe(SECRET);
  });
});
