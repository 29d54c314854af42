import { defineConfig } from "vitest/config";
import { HeavyFirstSequencer } from "./test/support/heavy-first-sequencer.js";
import { ISOLATED_FILES } from "./test/support/isolated-files.js";

const ALL = ["src/**/*.test.ts", "test/**/*.test.ts"];

// Config files are the one place a default export is required (vitest loads it that way).
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/count-reporter.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    // Longest files first (the heaviest are split in several files), so both workers end together.
    sequence: { sequencer: HeavyFirstSequencer },
    projects: [
      { extends: true, test: { name: "isolated", include: ISOLATED_FILES, isolate: true } },
      { extends: true, test: { name: "shared", include: ALL, exclude: ISOLATED_FILES, isolate: false } },
    ],
  },
});
