import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { KEY_CHECK_COMMAND, REAL_KEY } from "./installed-e2e.js";

/**
 * The installed-agent tests pass when the in-sandbox key search prints nothing but its end line.
 * That proves something only if the search finds a key that is there: planted here in the
 * searching shell's environment, in another process's environment only, and in files the
 * trial writes, in a bwrap sandbox like the agents'.
 */
let root: string;
let sandbox: Sandbox;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "lh-key-check-"));
  sandbox = await new BwrapProvider().create({
    environmentDir: null,
    workdir: "/app",
    memoryMb: 256,
    cpus: 1,
    pidsMax: 128,
    allowInternet: false,
    stateDir: join(root, "state"),
  });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(root, { recursive: true, force: true });
});

async function check(prelude: string, env: Record<string, string> = {}): Promise<string[]> {
  const r = await sandbox.exec(["bash", "-c", `${prelude}${KEY_CHECK_COMMAND}`], { env, timeoutSec: 60 });
  return r.stdout.trim().split("\n");
}

describe("the in-sandbox key search", () => {
  it("prints only its end line when the key is nowhere", async () => {
    expect(await check("")).toEqual(["KEY-CHECK-END"]);
  });

  it("finds the key in its own environment and in another process's environment", async () => {
    expect(await check("", { LEAKED: REAL_KEY })).toEqual(["KEY-FOUND-ENV", "KEY-CHECK-END"]);
    // A process holding the key while the search itself runs without it: found through /proc.
    const other = await check("sleep 20 & unset LEAKED; ", { LEAKED: REAL_KEY });
    expect(other).toEqual(["KEY-FOUND-ENV", "KEY-CHECK-END"]);
  });

  it("finds the key in files the trial writes (workdir, /tmp, /root)", async () => {
    const half = REAL_KEY.length / 2;
    // Written in two halves so the command line itself does not hold the key.
    const plant = (path: string) =>
      `printf '%s%s' '${REAL_KEY.slice(0, half)}' '${REAL_KEY.slice(half)}' > ${path}; `;
    for (const path of ["/app/notes.txt", "/tmp/cache.bin", "/root/.config-key"]) {
      const found = await check(`mkdir -p /root; ${plant(path)}`);
      expect(found).toContain(`KEY-FOUND-FILE ${path}`);
      expect(found.at(-1)).toBe("KEY-CHECK-END");
      await sandbox.exec(["rm", "-f", path]);
    }
  });
});
