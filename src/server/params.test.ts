import { describe, expect, it } from "vitest";
import { UserError } from "../core/index.js";
import {
  checkId,
  insideJobsDir,
  listQueryString,
  parseTrialListQuery,
  parseTrialPageQuery,
} from "./params.js";

describe("viewer parameters", () => {
  it("accepts the ids the runner makes and refuses anything path-like", () => {
    for (const ok of ["20260101T000000Z-a1b2c3", "alpha__terminus__openai_gpt-4o__a0", "job.v2"]) {
      expect(checkId("job", ok)).toBe(ok);
    }
    for (const bad of ["..", ".", ".hidden", "a/b", "a\\b", "", "a\u0000b", "x".repeat(300), "../etc"]) {
      expect(() => checkId("trial", bad), bad).toThrow(UserError);
    }
  });

  it("keeps joined paths strictly inside the jobs folder", () => {
    expect(insideJobsDir("/data/jobs", "j", "t")).toBe("/data/jobs/j/t");
    expect(() => insideJobsDir("/data/jobs", "..", "etc")).toThrow(UserError);
    expect(() => insideJobsDir("/data/jobs", "")).toThrow(UserError);
  });

  it("parses list queries with defaults and writes them back without the defaults", () => {
    const q = parseTrialListQuery({ outcome: "completed", r_min: "0.25", model: "", limit: "100" });
    expect(q).toEqual({
      model: undefined,
      agent: undefined,
      task: undefined,
      outcome: "completed",
      r_min: 0.25,
      r_max: undefined,
      sort: "trial",
      order: "asc",
      limit: 100,
      offset: 0,
    });
    const again = listQueryString(q, { offset: 200 });
    expect(again).toBe("?outcome=completed&r_min=0.25&limit=100&offset=200");
    expect(parseTrialListQuery(Object.fromEntries(new URLSearchParams(again)))).toEqual({
      ...q,
      offset: 200,
    });
    expect(() => parseTrialListQuery({ offset: "-1" })).toThrow(UserError);
  });

  it("takes a window of trajectory steps from 1 on, and refuses anything else", () => {
    expect(parseTrialPageQuery({})).toEqual({});
    expect(parseTrialPageQuery({ steps_from: "" })).toEqual({});
    expect(parseTrialPageQuery({ steps_from: "101" })).toEqual({ steps_from: 101 });
    for (const bad of ["0", "-1", "1.5", "abc", "1e400"]) {
      expect(() => parseTrialPageQuery({ steps_from: bad }), bad).toThrow(UserError);
    }
  });
});
