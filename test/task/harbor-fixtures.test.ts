import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTaskSet, loadTasks } from "../../src/task/index.js";
import { tempDir } from "../runner/helpers.js";

const HARBOR = resolve(import.meta.dirname, "../fixtures/harbor");

describe("the Terminal-Bench-2-style Harbor fixtures load as Harbor tasks", async () => {
  const { tasks, skipped } = await loadTaskSet([HARBOR]);
  const byName = new Map(tasks.map((t) => [t.name, t]));

  it("loads every task of the dataset, with no warning", () => {
    expect(skipped).toEqual([]);
    expect(tasks.map((t) => t.name)).toEqual([
      "csv-aggregate",
      "line-count-nosolution",
      "sqlite-orders",
      "user-roles",
      "word-count",
    ]);
    // user-roles sets [agent] and [verifier] users: applied over its image, so no warning either.
    expect(tasks.flatMap((t) => t.warnings)).toEqual([]);
  });

  it("treats a Dockerfile as an image task whose environment/ is the build context", () => {
    const csv = byName.get("csv-aggregate");
    expect(csv?.image).toEqual({
      dockerfile: join(HARBOR, "csv-aggregate/environment/Dockerfile"),
      dockerImage: null,
    });
    expect(csv?.config.environment.allow_internet).toBe(false);
    const sqlite = byName.get("sqlite-orders");
    expect(sqlite?.image?.dockerfile).toBe(join(HARBOR, "sqlite-orders/environment/Dockerfile"));
    // No allow_internet: Harbor's default.
    expect(sqlite?.config.environment.allow_internet).toBe(true);
    expect(sqlite?.config.environment.build_timeout_sec).toBe(600);
  });

  it("treats docker_image as an image task with nothing to build, and reads its env tables", () => {
    const wc = byName.get("word-count");
    expect(wc?.image).toEqual({ dockerfile: null, dockerImage: "longhaul-base:bookworm" });
    expect(wc?.config.environment.env).toEqual({ CORPUS: "the cat and the dog and the bird" });
    expect(wc?.config.verifier.env).toEqual({ EXPECTED_TOP: "the" });
    expect(wc?.config.solution.env).toEqual({ SOLUTION_HINT: "sort | uniq -c" });
  });

  it("loads a task without solution/solve.sh", () => {
    const t = byName.get("line-count-nosolution");
    expect(t?.image?.dockerImage).toBe("longhaul-base:bookworm");
    expect(existsSync(join(t?.paths.solution ?? "", "solve.sh"))).toBe(false);
  });

  it("has the Dockerfile steps the issue names (WORKDIR, COPY, ENV, a build-time RUN apt-get)", async () => {
    const { readFileSync } = await import("node:fs");
    for (const name of ["csv-aggregate", "sqlite-orders"]) {
      const text = readFileSync(join(HARBOR, name, "environment/Dockerfile"), "utf8");
      expect(text).toMatch(/^FROM longhaul-base:bookworm$/m);
      for (const step of [
        "WORKDIR ",
        "COPY ",
        "ENV ",
        "RUN apt-get update && apt-get install -y --no-install-recommends python3-pytest",
      ]) {
        expect(text, `${name}: ${step}`).toContain(step);
      }
    }
  });
});

describe("a broken task in a dataset is skipped, the others load", () => {
  it("reports the broken task with its file, line and field; loadTasks still refuses", async () => {
    const ds = tempDir("ds");
    cpSync(join(HARBOR, "word-count"), join(ds, "good"), { recursive: true });
    mkdirSync(join(ds, "gpu", "tests"), { recursive: true });
    writeFileSync(join(ds, "gpu", "task.toml"), "[environment]\ngpus = 2\n");
    writeFileSync(join(ds, "gpu", "instruction.md"), "x\n");
    writeFileSync(join(ds, "gpu", "tests", "test.sh"), "exit 0\n");
    mkdirSync(join(ds, "bare"), { recursive: true });
    writeFileSync(join(ds, "bare", "task.toml"), "");

    const { tasks, skipped } = await loadTaskSet([ds]);
    expect(tasks.map((t) => t.name)).toEqual(["good"]);
    expect(skipped.map((s) => s.path)).toEqual([join(ds, "bare"), join(ds, "gpu")]);
    expect(skipped[0]?.reason).toContain("missing");
    expect(skipped[1]?.reason).toBe(
      `${join(ds, "gpu", "task.toml")}:2: [environment] gpus = 2: longhaul's sandboxes have no GPUs; this task cannot run here`,
    );
    await expect(loadTasks([ds])).rejects.toThrow(/missing/);
  });
});
