import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { py } from "./py.js";

// On the host without the sealed runner: run() itself must keep the limit (plain Harbor).
const UNSEALED = { LONGHAUL_SEALED_RUN: "/nonexistent/sealed-run" };

describe("how run() waits for the agent's program (kit version 10)", () => {
  it("waits without polling: no sleep of the grader's own between start and exit", () => {
    // Popen.wait(timeout=) polls with time.sleep (up to 50 ms a sleep), which every call paid
    // on top of the program's time; the kit now blocks in the wait with a timer beside it.
    const r = py<{ code: number; out: string; sleeps: number }>(
      `import time
sleeps = []
real_sleep = time.sleep
time.sleep = lambda s: (sleeps.append(s), real_sleep(s))[1]
code, out, _ = lh.run(["sh", "-c", "sleep 0.3; echo done"], timeout=10, cwd="/tmp")
time.sleep = real_sleep
print(json.dumps({"code": code, "out": out, "sleeps": len(sleeps)}))`,
      UNSEALED,
    );
    expect(r).toEqual({ code: 0, out: "done\n", sleeps: 0 });
  });

  it("still ends a program that outlives its limit, and everything it started", () => {
    const dir = mkdtempSync(join(tmpdir(), "lh-run-wait-"));
    const late = join(dir, "late");
    // A background child of the program would create `late` after 2 s if it survived the kill.
    const r = py<{ code: number; err: string; seconds: number }>(
      `import time
t = time.monotonic()
code, _, err = lh.run(["sh", "-c", "(sleep 2; touch ${late}) & sleep 30"], timeout=0.5, cwd="/tmp")
print(json.dumps({"code": code, "err": err, "seconds": time.monotonic() - t}))
time.sleep(2.5)`,
      UNSEALED,
    );
    expect(r.code).toBe(-9);
    expect(r.err).toBe("timeout");
    expect(r.seconds).toBeGreaterThanOrEqual(0.5);
    expect(r.seconds).toBeLessThan(5);
    expect(existsSync(late)).toBe(false);
  }, 30_000);
});
