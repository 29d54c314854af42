import { describe, expect, it } from "vitest";
import { type ContinuationTrial, continuationRows } from "./continuation.js";

const trial = (
  reward: number | null,
  c: { stops: number; back: number; first: number | null } | null,
  extra: Partial<ContinuationTrial> = {},
): ContinuationTrial => ({
  agent: "terminus",
  model: "m",
  outcome: "completed",
  reward,
  self_terminated: true,
  continuation:
    c === null
      ? null
      : {
          self_terminations: c.stops,
          reentries: c.back,
          first_stop_sec: c.stops > 0 ? 10 : null,
          reward_at_first_stop: c.first,
        },
  ...extra,
});

describe("continuationRows", () => {
  it("sets R at the first claimed completion beside the final R", () => {
    const rows = continuationRows([
      trial(1, { stops: 2, back: 1, first: 0.8 }), // a false finish, recovered
      trial(0.9, { stops: 1, back: 0, first: 0.9 }), // public checks passed: stopped as a false finish
      trial(0.5, { stops: 1, back: 1, first: 0.2 }, { outcome: "agent_timeout", self_terminated: false }),
      trial(0.3, { stops: 0, back: 0, first: null }, { outcome: "agent_timeout" }), // never claimed
      trial(1, null), // not in the mode: left out
      trial(null, { stops: 1, back: 0, first: 1 }, { outcome: "infra_error" }), // infrastructure: left out
    ]);
    expect(rows).toHaveLength(1);
    const r = rows[0];
    expect(r).toMatchObject({
      label: "terminus m",
      trials: 4,
      stopped: 3,
      selfTerminations: 4,
      reentries: 2,
      sentBack: 2,
      falseFinishesAtFirstStop: 2,
      recovered: 1,
      passAtFirstStop: 0,
      passAtEnd: 1,
    });
    expect(r?.meanRewardAtFirstStop).toBeCloseTo((0.8 + 0.9 + 0.2) / 3, 12);
    expect(r?.meanFinalReward).toBeCloseTo((1 + 0.9 + 0.5) / 3, 12);
  });

  it("is empty for a job that did not use the mode", () => {
    expect(continuationRows([trial(1, null), trial(0, null)])).toEqual([]);
  });
});
