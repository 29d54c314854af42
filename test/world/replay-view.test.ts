import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/index.js";
import { createViewerApp } from "../../src/server/index.js";
import { type WorldReplayView, worldReplayView } from "../../src/world/trial/replay-view.js";
import {
  bronzeArrowsRun,
  buildWorldJob,
  INJECTED_CHAT,
  WORLD_JOB,
  WORLD_TRIAL,
} from "../support/world-run.js";

describe("world replay view", () => {
  const { run, cce, success } = bronzeArrowsRun();

  it("gives each agent's position after every round, each call's result and its CCE mark", () => {
    expect(success).toBe(true);
    const v = worldReplayView(run, cce);
    expect(v.verdict).toBe("identical");
    expect(v.agents.map((a) => [a.id, a.colour])).toEqual([
      ["lumberjack", "#ff2828"],
      ["miner", "#2878ff"],
      ["smith", "#ffc800"],
      ["fletcher", "#00c878"],
    ]);
    // Frame 0 is the start, frame r the state after round r; every round is there.
    expect(v.rounds).toBe(run.rounds);
    expect(v.frames).toHaveLength(run.rounds + 1);
    expect(v.frames[0]).toEqual([
      [525, 381],
      [526, 381],
      [527, 381],
      [528, 381],
    ]);
    expect(v.frames[1]).toEqual([
      [500, 386],
      [524, 385],
      [527, 381],
      [528, 381],
    ]);
    expect(v.frames[2]).toEqual([
      [500, 401],
      [513, 404],
      [527, 381],
      [528, 381],
    ]);
    expect(v.frames[5]).toEqual([
      [528, 381],
      [481, 427],
      [527, 381],
      [528, 381],
    ]);
    expect(v.calls).toHaveLength(run.calls.length);
    expect(v.calls[0]).toEqual({
      index: 0,
      round: 0,
      agent: 0,
      tool: "move_to",
      args: '{"x":500,"y":386}',
      ok: true,
      result: "now at (500, 386)",
      // The walked tiles, corners only.
      path: [525, 381, 502, 381, 502, 382, 500, 382, 500, 386],
      mark: "closure",
    });
    expect(v.calls[2]).toMatchObject({ agent: 2, tool: "wait", path: [], mark: null });
    // The marks are exactly the trial's closure and witnesses: one witness, fletching the arrows.
    expect(v.calls.filter((c) => c.mark !== null).map((c) => c.index)).toEqual(cce.closure);
    const witnesses = v.calls.filter((c) => c.mark === "witness");
    expect(witnesses.map((c) => c.index)).toEqual(cce.witnesses);
    expect(witnesses.map((c) => [c.round, v.agents[c.agent]?.id, c.tool, c.args])).toEqual([
      [12, "fletcher", "craft_item", '{"item":"bronze_arrow","count":1}'],
    ]);
    // The chat is kept verbatim (escaping is the page's job), tied to its call.
    expect(v.calls[3]).toMatchObject({ agent: 3, tool: "chat", ok: true, mark: null });
    expect(v.chat).toEqual([{ round: 0, call: 3, agent: 3, to: null, text: INJECTED_CHAT }]);
    // The map crop holds everything the team did, with a margin.
    const inside = (x: number, y: number) =>
      x >= v.map.x + 1 && y >= v.map.y + 1 && x < v.map.x + v.map.w - 1 && y < v.map.y + v.map.h - 1;
    expect(v.frames.flat().every(([x, y]) => inside(x, y))).toBe(true);
    expect(v.map).toMatchObject({ x: 475, y: 374, w: 60, h: 60, scale: 12 });
    expect(v.map.png.startsWith("data:image/png;base64,iVBORw0KGgo")).toBe(true);
  });

  it("marks nothing without a CCE record, and reports a run that breaks off", () => {
    const plain = worldReplayView(run, null);
    expect(plain.cce).toBe(false);
    expect(plain.calls.every((c) => c.mark === null)).toBe(true);
    const calls = run.calls.map((c, i) => (i === 5 ? { ...c, round: 0 } : c));
    const broken: WorldReplayView = worldReplayView({ ...run, calls }, cce);
    expect(broken.verdict).toBe("invalid");
    expect(broken.reason).toContain("call 5 (miner)");
    expect(broken.calls).toHaveLength(5);
    expect(() => worldReplayView({ ...run, contentDigest: "other" }, cce)).toThrow(UserError);
  });

  it("is served for a world trial and refused for other trials", async () => {
    const jobsDir = join(mkdtempSync(join(tmpdir(), "longhaul-world-view-")), "jobs");
    await buildWorldJob(jobsDir);
    const viewer = await createViewerApp({ jobsDir });
    try {
      const base = `/api/jobs/${WORLD_JOB}/trials/${WORLD_TRIAL}`;
      const res = await viewer.app.request(`${base}/world-replay`);
      expect(res.status).toBe(200);
      const json = await res.text();
      const v = JSON.parse(json) as WorldReplayView;
      expect(v.frames[1]).toEqual([
        [500, 386],
        [524, 385],
        [527, 381],
        [528, 381],
      ]);
      const html = await (await viewer.app.request(`/jobs/${WORLD_JOB}/trials/${WORLD_TRIAL}`)).text();
      expect(html).toContain(`data-src="${base}/world-replay"`);
      // The page carries no chat text itself; the player writes it as text.
      expect(html).not.toContain("pwned");
      process.stdout.write(`world replay page weight: HTML ${html.length} B, JSON ${json.length} B\n`);
      expect(html.length + json.length).toBeLessThan(150_000);
      expect((await viewer.app.request(`/api/jobs/${WORLD_JOB}/trials/nope/world-replay`)).status).toBe(404);
      // Replays are kept between requests, and rebuilt when the run file changes.
      expect(await (await viewer.app.request(`${base}/world-replay`)).text()).toBe(json);
      const file = join(jobsDir, WORLD_JOB, WORLD_TRIAL, "world-run.json");
      const calls = run.calls.map((c, i) => (i === 5 ? { ...c, round: 0 } : c));
      writeFileSync(file, JSON.stringify({ ...run, calls }));
      utimesSync(file, new Date(), new Date(Date.now() + 5000));
      const again = (await (await viewer.app.request(`${base}/world-replay`)).json()) as WorldReplayView;
      expect(again.verdict).toBe("invalid");
    } finally {
      await viewer.close();
      rmSync(join(jobsDir, ".."), { recursive: true, force: true });
    }
  });
});
