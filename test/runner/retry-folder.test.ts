import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InfraError } from "../../src/core/index.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import type { Sandbox, SandboxProvider } from "../../src/sandbox/types.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig, tempDir } from "./helpers.js";

const bwrap = getSandboxProvider("bwrap");
let store: JobStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** bwrap, but the first verifier run fails as the infrastructure would (after the agent ran). */
function verifierFailsOnce(): SandboxProvider {
  let failed = false;
  return {
    name: "verifier-fails-once",
    check: async () => undefined,
    create: async (spec) => {
      const sandbox = await bwrap.create(spec);
      return new Proxy(sandbox, {
        get(target, key, receiver) {
          const value: unknown = Reflect.get(target, key, receiver);
          if (key !== "exec" || typeof value !== "function") return value;
          return (command: Parameters<Sandbox["exec"]>[0], options?: Parameters<Sandbox["exec"]>[1]) => {
            if (!failed && Array.isArray(command) && command[1] === "/tests/test.sh") {
              failed = true;
              return Promise.reject(new InfraError("verifier sandbox lost (injected)"));
            }
            return value.call(target, command, options);
          };
        },
      });
    },
  };
}

describe("a trial retried after an infrastructure failure", () => {
  it("keeps only the last attempt's files in its folder", async () => {
    store = await JobStore.open(tempDir("retry-folder"));
    const task = await fixtureTask("trivial");
    const config = jobConfig([task], {
      agents: ["shell"],
      agent_options: { cmd: "date +%s%N > /logs/agent/run-$(date +%s%N).txt; echo ran $(date +%s%N)" },
      retries: 1,
    });
    const out = await runJob({ store, config, tasks: [task], provider: verifierFailsOnce(), resume: false });
    const t = out.trials[0];
    expect(t?.infra_retries).toBe(1);
    expect(t?.outcome).toBe("completed");
    const agentDir = join(store.trialDir(config.job_id, t?.trial_id ?? ""), "agent");
    // One agent run's files: the first attempt's copy of /logs/agent is gone with it.
    expect(readdirSync(join(agentDir, "logs"))).toHaveLength(1);
    expect(readFileSync(join(agentDir, "shell.stdout.txt"), "utf8").match(/^ran /gm)).toHaveLength(1);
  }, 30_000);
});

describe("a trial waiting to be retried", () => {
  it("stops waiting as soon as the job is stopped", async () => {
    store = await JobStore.open(tempDir("retry-wait"));
    const task = await fixtureTask("trivial");
    const stop = new AbortController();
    let creates = 0;
    let stoppedAt = 0;
    const broken: SandboxProvider = {
      name: "broken",
      check: async () => undefined,
      create: async () => {
        creates += 1;
        // Stopped early in the 4 s wait before the fourth try: a wait not cut short ends 3.9 s
        // after the stop, well clear of the bound below even on a loaded host (the 2 s wait
        // left 0.4 s between the bound and a wait run to its end).
        if (creates === 3) {
          setTimeout(() => {
            stoppedAt = Date.now();
            stop.abort(new Error("SIGINT"));
          }, 100);
        }
        throw new InfraError("sandbox would not start (injected)");
      },
    };
    const config = jobConfig([task], { retries: 5 });
    const out = await runJob({
      store,
      config,
      tasks: [task],
      provider: broken,
      resume: false,
      signal: stop.signal,
    });
    expect(out.interrupted).toBe(true);
    expect(out.trials).toEqual([]);
    expect(creates).toBe(3);
    expect(Date.now() - stoppedAt).toBeLessThan(3000);
  }, 30_000);
});
