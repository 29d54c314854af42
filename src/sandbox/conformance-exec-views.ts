import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { Sandbox } from "./types.js";

/** What the per-exec tests need of the conformance suite around them (filled in its beforeAll). */
export interface ExecViewsContext {
  make: () => Promise<Sandbox>;
  root: () => string;
  shared: () => Sandbox;
}

/**
 * The part of the conformance suite about what one exec sees beyond the sandbox's own folders:
 * fresh folders and extra mounts (read-only or writable) that last for that exec only.
 */
export function describePerExecViews(ctx: ExecViewsContext): void {
  it("gives an exec fresh folders, as a new sandbox has them, that hide the persistent ones for that exec only", async () => {
    const s = await ctx.make();
    // Empty on the host's system folders; over an image, the folders as the image has them.
    const pristine = (await s.exec("ls -A /root /tmp")).stdout;
    await s.exec("echo kept > /tmp/left; mkdir -p /root/.local && echo kept > /root/.local/x");
    const r = await s.exec("ls -A /root /tmp; echo new > /tmp/mine; cat /tmp/mine", {
      freshDirs: ["/root", "/tmp"],
    });
    expect(r).toMatchObject({ exitCode: 0, stdout: `${pristine}new\n` });
    const after = await s.exec("cat /tmp/left /root/.local/x; ls /tmp");
    expect(after.stdout).toBe("kept\nkept\nleft\n");
  });

  it("binds extra mounts for one exec, read-only when asked", async () => {
    const ro = join(ctx.root(), "ro-mount");
    const rw = join(ctx.root(), "rw-mount");
    mkdirSync(ro, { recursive: true });
    mkdirSync(rw, { recursive: true });
    writeFileSync(join(ro, "test.sh"), "echo graded\n");
    const mounts = [
      { hostPath: ro, sandboxPath: "/tests", readonly: true },
      { hostPath: rw, sandboxPath: "/out", readonly: false },
    ];
    const r = await ctx
      .shared()
      .exec("bash /tests/test.sh; echo hacked > /tests/test.sh || echo refused; echo result > /out/r.txt", {
        mounts,
      });
    expect(r.stdout).toBe("graded\nrefused\n");
    expect(readFileSync(join(ro, "test.sh"), "utf8")).toBe("echo graded\n");
    expect(readFileSync(join(rw, "r.txt"), "utf8")).toBe("result\n");
    expect((await ctx.shared().exec("test -e /tests/test.sh")).exitCode).not.toBe(0);
  });

  it("read-only mounts keep file modes: a copy made with cp is writable, the original is not", async () => {
    // A solution script that copies its program out of /solution and then patches it (mutants
    // do) must behave alike under every provider.
    const ro = join(ctx.root(), "ro-modes");
    mkdirSync(ro, { recursive: true });
    writeFileSync(join(ro, "prog.py"), "x = 1\n", { mode: 0o644 });
    const r = await ctx
      .shared()
      .exec(
        [
          "cp /sol/prog.py /tmp/prog.py",
          "echo 'x = 2' >> /tmp/prog.py && echo copy-writable",
          "echo hacked >> /sol/prog.py 2>/dev/null || echo original-refused",
          "chmod u+w /sol/prog.py 2>/dev/null && echo hacked >> /sol/prog.py 2>/dev/null || echo chmod-refused",
          "rm -f /tmp/prog.py",
        ].join("; "),
        { mounts: [{ hostPath: ro, sandboxPath: "/sol", readonly: true }] },
      );
    expect(r.stdout).toBe("copy-writable\noriginal-refused\nchmod-refused\n");
    expect(readFileSync(join(ro, "prog.py"), "utf8")).toBe("x = 1\n");
  });
}
