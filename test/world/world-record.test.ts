import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordWorldReferences } from "../../src/cli/commands/world-record.js";
import { createWorld } from "../../src/world/build/world.js";
import { loadWorldTask, replayReference, verifyWorldRun } from "../../src/world/task/index.js";
import { referenceFromCalls, withReference } from "../../src/world/task/record-reference.js";
import { tempDir } from "../runner/helpers.js";
import { taskFile } from "./task-sample.js";

const world = createWorld();

describe("world record", () => {
  it("turns played calls into reference rounds: waits and chats dropped, empty rounds kept", () => {
    const move = { tool: "move_to", args: { x: 1, y: 2 } };
    const rounds = referenceFromCalls([
      { round: 0, agent: "a", call: move },
      { round: 0, agent: "b", call: { tool: "chat", args: { message: "hi" } } },
      { round: 1, agent: "a", call: { tool: "wait", args: {} } },
      { round: 2, agent: "b", call: { tool: "complete", args: { summary: "done" } } },
    ]);
    expect(rounds).toEqual([
      [{ agent: "a", call: move }],
      [],
      [{ agent: "b", call: { tool: "complete", args: { summary: "done" } } }],
    ]);
  });

  it("writes the scripted team's calls as the reference, keeping comments and other keys", async () => {
    const dir = tempDir("world-record");
    const file = join(dir, "warden-hunt.yaml");
    const original = readFileSync(taskFile("warden-hunt"), "utf8");
    // Without its reference, with an extra comment that must survive.
    const stripped = original
      .replace(/\nreference:\n[\s\S]*$/, "\n")
      .replace("max_rounds: 16", "max_rounds: 16 # budget");
    writeFileSync(file, stripped);
    const [line] = await recordWorldReferences([file], world, { team: "scripted" });
    expect(line?.ok, line?.text).toBe(true);
    expect(line?.text).toMatch(
      /^wrote a \d+-round reference \(\d+ calls; scripted succeeded in \d+ rounds, psr 1\.00\)$/,
    );
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(stripped.split("\n")[0] ?? "?")).toBe(true);
    expect(text).toContain("max_rounds: 16 # budget");
    expect(text).toMatch(/\n {2}- - \{ agent: veteran, call: \{ tool: \w+, args: \{/);
    expect(text).not.toContain("tool: chat");
    const spec = loadWorldTask(file, world);
    const ref = replayReference(spec, world);
    expect(verifyWorldRun(spec, world, ref.state, ref.events).success).toBe(true);
  });

  it("writes nothing when the team fails or on a dry run", async () => {
    const dir = tempDir("world-record");
    const file = join(dir, "bronze-arrows.yaml");
    copyFileSync(taskFile("bronze-arrows"), file);
    const before = readFileSync(file, "utf8");
    const [dry] = await recordWorldReferences([file], world, { team: "scripted", dryRun: true });
    expect(dry?.text).toMatch(/^would write a \d+-round reference/);
    const [fail] = await recordWorldReferences([file], world, { team: "nop" });
    expect(fail?.ok).toBe(false);
    expect(fail?.text).toMatch(/^nop fails in 24 rounds: /);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("replaces an existing reference in place", () => {
    const text = "# c\nid: x\nreference:\n  - []\nmax_rounds: 3\n";
    const out = withReference(text, "x.yaml", [[{ agent: "a", call: { tool: "wait", args: {} } }], []]);
    expect(out).toBe(
      "# c\nid: x\nreference:\n  - - { agent: a, call: { tool: wait, args: {} } }\n  - []\nmax_rounds: 3\n",
    );
  });
});
