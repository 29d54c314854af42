import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";
import type { Sandbox, SandboxSpec } from "../../src/sandbox/types.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../support/base-image.js";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Shell that rewrites /logs/NAME every 50 ms, forever (renamed in place: never seen half-written). */
const tick = (name: string): string =>
  `while :; do date +%s%N > /logs/${name}.new && mv /logs/${name}.new /logs/${name}; sleep 0.05; done`;

describe("docker background processes and their abort signal", () => {
  let root: string;
  let sandbox: Sandbox;

  beforeAll(async () => {
    await ensureTestBaseImage();
    root = mkdtempSync(join(tmpdir(), "longhaul-docker-bg-"));
    const spec: SandboxSpec = {
      environmentDir: null,
      workdir: "/app",
      memoryMb: 256,
      cpus: 1,
      pidsMax: 128,
      allowInternet: false,
      stateDir: join(root, "state"),
    };
    sandbox = await new DockerProvider({ defaultImage: TEST_BASE_IMAGE }).create(spec);
  }, 600_000);

  afterAll(async () => {
    await sandbox?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  const host = (name: string): string => sandbox.hostPathOf?.(`/logs/${name}`) ?? "";
  const read = (name: string): string => (existsSync(host(name)) ? readFileSync(host(name), "utf8") : "");

  /** Whether /logs/NAME changes within `ms` (its ticker lives): ample for a loaded 2-core host. */
  async function alive(name: string, ms = 30_000): Promise<boolean> {
    const end = Date.now() + ms;
    const a = read(name);
    while (Date.now() < end) {
      await sleep(100);
      const b = read(name);
      if (b !== "" && b !== a) return true;
    }
    return false;
  }

  /**
   * Whether /logs/NAME stops changing for a second within `ms` (its ticker died); the abort's kill
   * is a `docker exec` of its own, which a loaded host may start seconds late.
   */
  async function dead(name: string, ms = 30_000): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const a = read(name);
      await sleep(1000);
      if (read(name) === a) return true;
    }
    return false;
  }

  /**
   * Each ticker watched at once, not one after another: `dead` takes a second or more a name, and
   * what each must show is its own (the same check, the same limit, per name).
   */
  async function expectAll(
    names: readonly string[],
    check: (name: string) => Promise<boolean>,
    want: boolean,
  ): Promise<void> {
    const got = await Promise.all(names.map((n) => check(n)));
    for (const [i, n] of names.entries()) expect(got[i], n).toBe(want);
  }

  it("kills what a background command left in new sessions on abort, even with its wrapper gone, and nothing else", async () => {
    // The command hides its children from the Unix session and the environment the killer looked
    // for (setsid, env -i, a double fork) and kills its own wrapper, which alone carried the marker.
    const escaping = [
      `setsid env -i bash -c '${tick("a1")}' &`,
      `(setsid -f env -i bash -c '${tick("a2")}')`,
      "sleep 0.5; kill -9 $PPID",
      tick("a0"),
    ].join("\n");
    const ac = new AbortController();
    await sandbox.spawnBackground?.(["bash", "-c", escaping], { signal: ac.signal });
    // Another background command, watched by its own signal, with a child in a session of its own.
    const other = new AbortController();
    await sandbox.spawnBackground?.(["bash", "-c", `setsid bash -c '${tick("b1")}' & ${tick("b0")}`], {
      signal: other.signal,
    });
    // One no signal watches, and an exec that is running meanwhile: the agent's own.
    await sandbox.spawnBackground?.(["bash", "-c", tick("c0")]);
    const exec = sandbox.exec(`sleep 4; echo still-here`);
    await expectAll(["a0", "a1", "a2", "b0", "b1", "c0"], alive, true);
    ac.abort();
    await expectAll(["a0", "a1", "a2"], dead, true);
    await expectAll(["b0", "b1", "c0"], alive, true);
    expect((await exec).stdout).toBe("still-here\n");
    other.abort();
    await expectAll(["b0", "b1"], dead, true);
    expect(await alive("c0")).toBe(true);
    await sandbox.killAll();
    expect(await dead("c0")).toBe(true);
  }, 120_000);
});
