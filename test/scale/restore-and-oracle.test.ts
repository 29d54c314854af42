import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/scale/verify/diagnostics.js";
import { restoreAndOracle } from "../../src/scale/verify/restore-and-oracle.js";

const pass = (name: CheckResult["name"]): CheckResult => ({
  name,
  status: "pass",
  detail: "",
  diagnostics: [],
});
const fail = (name: CheckResult["name"]): CheckResult => ({
  name,
  status: "fail",
  detail: "",
  diagnostics: [{ code: "missing-fact", step: null, message: "gone" }],
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An oracle that takes `ms` unless stopped, recording what happened to it. */
function slowOracle(ms: number, log: string[]) {
  return (signal: AbortSignal) =>
    new Promise<CheckResult>((resolve, reject) => {
      log.push("oracle started");
      const t = setTimeout(() => {
        log.push("oracle finished");
        resolve(pass("oracle"));
      }, ms);
      signal.addEventListener("abort", () => {
        clearTimeout(t);
        // Winding down takes a moment (sandboxes closed): the caller must wait for it.
        setTimeout(() => {
          log.push("oracle stopped");
          reject(new Error("interrupted"));
        }, 20);
      });
    });
}

describe("restore check and oracle trials side by side", () => {
  it("runs both at once: the oracle starts before the restore check ends", async () => {
    const log: string[] = [];
    const out = await restoreAndOracle({
      restore: async () => {
        log.push("restore started");
        await sleep(150);
        log.push("restore finished");
        return pass("restore");
      },
      oracle: slowOracle(150, log),
      skippedBecause: "x",
    });
    expect(out.map((c) => `${c.name}:${c.status}`)).toEqual(["restore:pass", "oracle:pass"]);
    // Each started before the other finished: side by side, whatever the host's load (a bound
    // on the elapsed time, 280 ms against 300 run one after the other, failed on a busy host).
    expect(log.indexOf("oracle started")).toBeLessThan(log.indexOf("restore finished"));
    expect(log.indexOf("restore started")).toBeLessThan(log.indexOf("oracle finished"));
  });

  it("stops the trials when the restore check fails, waits for them, and reports the oracle skipped", async () => {
    const log: string[] = [];
    const out = await restoreAndOracle({
      restore: async () => fail("restore"),
      oracle: slowOracle(5000, log),
      skippedBecause: "the restore steps fail",
    });
    expect(out[1]).toEqual({
      name: "oracle",
      status: "skipped",
      detail: "the restore steps fail",
      diagnostics: [],
    });
    expect(log).toEqual(["oracle started", "oracle stopped"]);
  });

  it("rethrows the restore check's own error after the trials wound down", async () => {
    const log: string[] = [];
    await expect(
      restoreAndOracle({
        restore: async () => {
          throw new Error("no sandbox");
        },
        oracle: slowOracle(5000, log),
        skippedBecause: "x",
      }),
    ).rejects.toThrow("no sandbox");
    expect(log).toEqual(["oracle started", "oracle stopped"]);
  });

  it("passes the caller's abort on to the trials and surfaces their error", async () => {
    const log: string[] = [];
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 30);
    await expect(
      restoreAndOracle({
        restore: async () => {
          await sleep(100);
          return pass("restore");
        },
        oracle: slowOracle(5000, log),
        signal: stop.signal,
        skippedBecause: "x",
      }),
    ).rejects.toThrow("interrupted");
  });

  it("runs no trial when trials are not requested", async () => {
    const log: string[] = [];
    const out = await restoreAndOracle({
      restore: async () => pass("restore"),
      oracle: slowOracle(10, log),
      trials: false,
      skippedBecause: "x",
    });
    expect(out[1]?.status).toBe("skipped");
    expect(log).toEqual([]);
  });
});
