import { defineConfig } from "vitest/config";
import { HeavyFirstSequencer } from "./test/support/heavy-first-sequencer.js";

// Config files are the one place a default export is required (vitest loads it that way).
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    reporters: ["default", "./test/support/count-reporter.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    // Longest files first (the heaviest are split in several files), so both workers end together.
    sequence: { sequencer: HeavyFirstSequencer },
  },
});
