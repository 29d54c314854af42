import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { ExecViewsContext } from "./conformance-exec-views.js";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Execs on a fresh copy of the image (ExecOptions.imageRoot, the verifier of a task with
 * `[verifier] root = "image"`), for providers whose system folders are an image's own root
 * (ConformanceOptions.imageRoot): what the sandbox's commands changed in the system, /tmp or /root
 * is not there, its workdir and /logs are, its root shows read-only at /longhaul/agent-root, and the exec's mounts, fresh
 * folders, variables, cwd and limits are as on the sandbox's own root.
 */
export function describeFreshImageRoot(ctx: ExecViewsContext): void {
  it("runs an imageRoot exec on a fresh copy of the image: its workdir and /logs carried over, its system, /tmp and /root not, its root read-only at /longhaul/agent-root", async () => {
    const s = await ctx.make();
    const planted = await s.exec(
      "echo agent > /app/work.txt; echo kept > /logs/kept; echo kept > /tmp/kept; " +
        "echo planted > /etc/lh-planted; printf '#!/bin/sh\\nexit 0\\n' > /usr/local/bin/lh-tool; " +
        "chmod +x /usr/local/bin/lh-tool",
    );
    expect(planted.exitCode).toBe(0);
    const r = await s.exec(
      [
        "cat /app/work.txt /logs/kept",
        "test -e /tmp/kept && echo tmp-seen",
        "test -e /etc/lh-planted && echo system-change-seen",
        "command -v lh-tool >/dev/null && echo tool-seen",
        "cat /longhaul/agent-root/etc/lh-planted",
        "touch /longhaul/agent-root/etc/lh-x 2>/dev/null && echo agent-root-writable",
        "echo fresh > /etc/lh-fresh; echo out > /app/from-exec",
      ].join("; "),
      { imageRoot: true },
    );
    expect(r).toMatchObject({ exitCode: 0, stdout: "agent\nkept\nplanted\n" });
    // The workdir is shared; the copy's system folders vanish with the exec.
    const after = await s.exec(
      "cat /app/from-exec /etc/lh-planted; test -e /etc/lh-fresh && echo copy-kept; test -e /etc/lh-x && echo x",
    );
    expect(after.stdout).toBe("out\nplanted\n");
  });

  it("gives an imageRoot exec its mounts, fresh folders, variables and cwd, and kills it on timeout", async () => {
    const s = await ctx.make();
    const pristine = (await s.exec("ls -A /root /tmp")).stdout;
    await s.exec("echo left > /tmp/left; mkdir -p /root/.cache && echo left > /root/.cache/x");
    const ro = join(ctx.root(), "fresh-root-ro");
    const rw = join(ctx.root(), "fresh-root-rw");
    mkdirSync(ro, { recursive: true });
    mkdirSync(rw, { recursive: true });
    writeFileSync(join(ro, "test.sh"), "echo graded\n");
    const r = await s.exec(
      "pwd; echo $LH_VAR; bash /tests/test.sh; echo hacked > /tests/test.sh 2>/dev/null || echo refused; " +
        "echo result > /out/r.txt; ls -A /root /tmp",
      {
        imageRoot: true,
        cwd: "/tests",
        env: { LH_VAR: "given" },
        freshDirs: ["/root", "/tmp"],
        mounts: [
          { hostPath: ro, sandboxPath: "/tests", readonly: true },
          { hostPath: rw, sandboxPath: "/out", readonly: false },
        ],
      },
    );
    expect(r).toMatchObject({ exitCode: 0, stdout: `/tests\ngiven\ngraded\nrefused\n${pristine}` });
    expect(readFileSync(join(rw, "r.txt"), "utf8")).toBe("result\n");
    expect(readFileSync(join(ro, "test.sh"), "utf8")).toBe("echo graded\n");
    const kept = await s.exec("cat /tmp/left /root/.cache/x; test -e /tests && echo tests-left; true");
    expect(kept.stdout).toBe("left\nleft\n");
    const t = await s.exec("(while :; do echo x >> /app/ticks; sleep 0.05; done) & sleep 100", {
      imageRoot: true,
      // Long enough for a fresh container to start under load, so the loop has written before the kill.
      timeoutSec: 3,
    });
    expect(t).toMatchObject({ exitCode: null, timedOut: true });
    expect(t.durationSec).toBeLessThan(10);
    await sleep(200);
    const before = (await s.exec("wc -c < /app/ticks")).stdout.trim();
    await sleep(400);
    expect(Number(before)).toBeGreaterThan(0);
    expect((await s.exec("wc -c < /app/ticks")).stdout.trim()).toBe(before);
  });
}
