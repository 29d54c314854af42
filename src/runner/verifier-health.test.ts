import { describe, expect, it } from "vitest";
import { toolingEvidence } from "./verifier-health.js";

describe("toolingEvidence", () => {
  it("takes a shell's own 'not found' lines as evidence", () => {
    for (const line of [
      "bash: line 2: uvx: command not found",
      "sh: 1: pytest: not found",
      "/tests/test.sh: line 3: pytest: command not found",
      "python3: command not found",
    ]) {
      expect(toolingEvidence("", line), line).toEqual([line]);
    }
  });

  it("ignores the agent's own text that a diff or a report quotes", () => {
    for (const line of [
      "< python3: command not found",
      "> bash: uvx: command not found",
      "E   AssertionError: 'pytest: command not found' != 'ok'",
      "expected hello, got python3: command not found in /app/out.txt",
    ]) {
      expect(toolingEvidence(line, ""), line).toEqual([]);
    }
  });
});
