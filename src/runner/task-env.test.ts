import { describe, expect, it } from "vitest";
import type { ExecResult, Sandbox } from "../sandbox/types.js";
import { withEnv } from "./task-env.js";

function fakeSandbox(nestingAllowed: boolean | undefined, seen: Record<string, string>[]): Sandbox {
  const result: ExecResult = {
    exitCode: 0,
    signal: null,
    stdout: "",
    stderr: "",
    timedOut: false,
    truncated: false,
    durationSec: 0,
  };
  return {
    id: "s1",
    spec: {
      environmentDir: null,
      workdir: "/app",
      memoryMb: 512,
      cpus: 1,
      pidsMax: 64,
      allowInternet: false,
      stateDir: "/nonexistent",
    },
    ...(nestingAllowed === undefined ? {} : { nestingAllowed }),
    exec: async (_command, options) => {
      seen.push({ ...(options?.env ?? {}) });
      return result;
    },
    upload: async () => {},
    download: async () => {},
    killAll: async () => {},
    close: async () => {},
  };
}

describe("withEnv", () => {
  it("keeps the wrapped sandbox's answer to whether it may nest", () => {
    expect(withEnv(fakeSandbox(false, []), { A: "1" }).nestingAllowed).toBe(false);
    expect(withEnv(fakeSandbox(true, []), { A: "1" }).nestingAllowed).toBe(true);
    expect(withEnv(fakeSandbox(undefined, []), { A: "1" }).nestingAllowed).toBeUndefined();
  });

  it("puts the task's variables under each exec's own", async () => {
    const seen: Record<string, string>[] = [];
    const s = withEnv(fakeSandbox(true, seen), { A: "task", B: "task" });
    await s.exec("true", { env: { B: "exec" } });
    expect(seen).toEqual([{ A: "task", B: "exec" }]);
  });
});
