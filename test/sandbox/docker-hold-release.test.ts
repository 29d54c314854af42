import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, dockerBin } from "../../src/sandbox/docker/proc.js";
import { wrappedExecArgs } from "../../src/sandbox/docker/run-args.js";
import { EXEC_MARKER, HOLD_MARKER, HOLD_RELEASE } from "../../src/sandbox/docker/scripts.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../support/base-image.js";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * HOLD_RELEASE against a process that is not the held wrapper but looks like it: the marker in
 * its initial environment and SIGUSR1 caught. The wrapper's own children are such processes
 * between their fork and their exec (its `sleep 0.05 &` while it waits), many times a second; on
 * a loaded host one was now and then taken for the wrapper, got the release, and the held
 * background command never ran while spawnBackground reported it started.
 */
describe("docker: the release of a held background wrapper", () => {
  let container = "";

  beforeAll(async () => {
    await ensureTestBaseImage();
    const r = await collect([dockerBin(), "run", "-d", "--rm", TEST_BASE_IMAGE, "sleep", "600"]);
    expect(r.code, r.stderr).toBe(0);
    container = r.stdout.toString("utf8").trim();
  }, 600_000);

  afterAll(async () => {
    if (container !== "") await collect([dockerBin(), "rm", "-f", container]);
  });

  const inside = (script: string, ...args: string[]) =>
    collect([dockerBin(), "exec", container, "bash", "-c", script, "longhaul-helper", ...args]);

  it("goes to the exec's session leader, not to a process that only shares its marker", async () => {
    const execId = "feedc0dedecaf000";
    // Started first, so its pid sorts before the wrapper's in /proc (a fresh container's pids
    // have two digits): not a session leader, the marker in its environment, SIGUSR1 trapped.
    const decoy = await collect([
      dockerBin(),
      "exec",
      "-d",
      container,
      "bash",
      "-c",
      `${EXEC_MARKER}=${execId} bash -c 'trap : USR1; while :; do sleep 0.05 & wait $!; done' & wait`,
    ]);
    expect(decoy.code, decoy.stderr).toBe(0);
    const started = await collect([
      dockerBin(),
      ...wrappedExecArgs({
        mode: "-d",
        container,
        user: "0",
        cwd: "/",
        env: { [HOLD_MARKER]: "1" },
        execId,
        argv: ["bash", "-c", "echo ran > /tmp/ran"],
      }),
    ]);
    expect(started.code, started.stderr).toBe(0);
    const released = await inside(HOLD_RELEASE, execId);
    expect(released.code, released.stderr).toBe(0);
    // The held command runs once released (it is held up to 5 min otherwise): 30 s is ample.
    let ran = "";
    const end = Date.now() + 30_000;
    while (ran === "" && Date.now() < end) {
      await sleep(100);
      ran = (await inside("cat /tmp/ran 2>/dev/null || true")).stdout.toString("utf8");
    }
    expect(ran).toBe("ran\n");
  }, 120_000);
});
