import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds the suite's heaviest files take in a full run on the 2-core machine with both workers
 * busy (docs/benchmarks.md, "Test suite"). Used only for a file vitest has no cached duration of
 * (a fresh checkout, a new file): its own fallback orders such files by size, which would start a
 * short file that runs real sandboxes for minutes last, and leave one worker alone at the end.
 */
const HEAVY_SECONDS: Readonly<Record<string, number>> = {
  "test/tasks/dataset-check-1.test.ts": 160,
  "test/tasks/dataset-check-2.test.ts": 160,
  "test/scale/lineages/metric-table-repro.test.ts": 100,
  "test/scale/lineages/lander-pilot.test.ts": 30,
  "test/scale/lineages/loan-schedule.test.ts": 130,
  "test/scale/lineages/orbit-propagate.test.ts": 100,
  "test/scale/follow-e2e.test.ts": 90,
  "test/adversarial/resource.test.ts": 45,
  "test/adversarial/egress.test.ts": 30,
  "test/harbor/harbor-e2e.test.ts": 70,
  "test/runner/resume-crash.test.ts": 70,
  "test/tasks/dataset-docker.test.ts": 60,
  "test/cli/dataset-calibrate.test.ts": 30,
  "test/config/plugin-kinds.test.ts": 30,
  "test/tasks/mutants.test.ts": 40,
  "test/tasks/check-mutants.test.ts": 25,
  "test/adversarial/reward.test.ts": 55,
  "test/api/packed-install.test.ts": 60,
  "test/agents/installed-bundled-task.test.ts": 50,
  "test/agents/installed-qwen-code.test.ts": 40,
  "test/agents/installed-docker.test.ts": 30,
  "test/agents/installed-codex.test.ts": 25,
};

/** Longest first, so that the two workers finish together: cached durations, else the table above. */
export class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const key = (f: TestSpecification): string => relative(this.ctx.config.root, f.moduleId);
    const seconds = (f: TestSpecification): number => {
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${key(f)}`);
      return cached === undefined ? (HEAVY_SECONDS[key(f)] ?? 0) : cached.duration / 1000;
    };
    const size = (f: TestSpecification): number =>
      this.ctx.cache.getFileStats(`${f.project.name}:${key(f)}`)?.size ?? 0;
    return [...files].sort((a, b) => seconds(b) - seconds(a) || size(b) - size(a));
  }
}
