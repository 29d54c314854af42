import { expect, it } from "vitest";
import { UserError } from "../core/errors.js";
import type { Sandbox, SandboxSpec } from "./types.js";

/** What the background-process tests need of the conformance suite around them. */
export interface BackgroundContext {
  make: (over?: Partial<SandboxSpec>) => Promise<Sandbox>;
  /** The provider's system folders are an image's (ConformanceOptions.imageRoot). */
  imageRoot: boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A background command that rewrites `file` every 50 ms, from a child loop, until it dies. */
const ticker = (file: string): string[] => [
  "bash",
  "-c",
  `(while :; do date +%s%N > ${file}.new && mv ${file}.new ${file}; sleep 0.05; done) & wait`,
];

const read = async (s: Sandbox, file: string): Promise<string> => (await s.exec(["cat", file])).stdout;

/** True once `file` has changed within 300 ms (the ticker runs), within `ms`. */
async function ticks(s: Sandbox, file: string, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const a = await read(s, file);
    await sleep(300);
    if (a !== "" && (await read(s, file)) !== a) return true;
  }
  return false;
}

/** True once `file` stays the same for 500 ms (the ticker is dead), within `ms`. */
async function stops(s: Sandbox, file: string, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const a = await read(s, file);
    await sleep(500);
    if ((await read(s, file)) === a) return true;
  }
  return false;
}

/**
 * A nested sandbox as the grader kit's sealed-run makes one (bwrap from the sandbox's own
 * system folders), printing `nested` from inside.
 */
const NEST =
  "bwrap --tmpfs / --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib " +
  "--symlink usr/lib64 /lib64 --symlink usr/sbin /sbin --ro-bind /proc /proc --dev /dev " +
  "--unshare-all --uid 0 --gid 0 --die-with-parent --cap-drop ALL -- /bin/sh -c 'echo nested'";

/**
 * The part of the conformance suite about spawnBackground's own options: its abort signal ends it
 * (and it alone) as an exec's does, and `nestedSandbox` is honoured or refused as for an exec.
 */
export function describeBackground(ctx: BackgroundContext): void {
  it("ends a background process, children too, and it alone, when its signal aborts", async () => {
    const s = await ctx.make();
    const ac = new AbortController();
    await s.spawnBackground?.(ticker("/logs/aborted"), { signal: ac.signal });
    await s.spawnBackground?.(ticker("/logs/kept"), { signal: new AbortController().signal });
    expect(await ticks(s, "/logs/aborted")).toBe(true);
    ac.abort();
    expect(await stops(s, "/logs/aborted")).toBe(true);
    // The other lives on until killAll.
    expect(await ticks(s, "/logs/kept")).toBe(true);
    await s.killAll();
    expect(await stops(s, "/logs/kept")).toBe(true);
  });

  it("starts no background process whose signal has already aborted, and says so", async () => {
    const s = await ctx.make();
    const early = s.spawnBackground?.(["bash", "-c", "echo ran > /logs/early; exec sleep 300"], {
      signal: AbortSignal.abort(),
    });
    await expect(early).rejects.toThrow();
    await sleep(500);
    expect((await s.exec("cat /logs/early 2>/dev/null; true")).stdout).toBe("");
  });

  if (ctx.imageRoot) {
    it("ends a background process on a fresh copy of the image when its signal aborts", async () => {
      const s = await ctx.make();
      const ac = new AbortController();
      // /logs is the sandbox's own in the fresh copy too, so its execs see the ticks.
      await s.spawnBackground?.(ticker("/logs/fresh"), { signal: ac.signal, imageRoot: true });
      expect(await ticks(s, "/logs/fresh")).toBe(true);
      ac.abort();
      expect(await stops(s, "/logs/fresh")).toBe(true);
      await s.killAll();
    });
  }

  it("lets a background process nest sandboxes with nestedSandbox where execs may, and refuses it with a UserError where they may not", async () => {
    const plain = await ctx.make();
    const probe = ["bash", "-c", `${NEST} > /logs/nest.out 2>&1; exec sleep 300`];
    if (plain.nestingAllowed === false) {
      await expect(plain.exec(NEST, { nestedSandbox: true })).rejects.toBeInstanceOf(UserError);
      await expect(plain.spawnBackground?.(probe, { nestedSandbox: true })).rejects.toBeInstanceOf(UserError);
      await sleep(500);
      expect((await plain.exec("cat /logs/nest.out 2>/dev/null; true")).stdout).toBe("");
    }
    // A sandbox made for nesting (SandboxSpec.nesting) must allow it.
    const s = plain.nestingAllowed === false ? await ctx.make({ nesting: true }) : plain;
    expect(s.nestingAllowed).not.toBe(false);
    await s.spawnBackground?.(probe, { nestedSandbox: true });
    let out = "";
    for (let i = 0; i < 100 && out === ""; i++) {
      await sleep(200);
      out = (await s.exec("cat /logs/nest.out 2>/dev/null; true")).stdout;
    }
    expect(out).toBe("nested\n");
    await s.killAll();
  });
}
