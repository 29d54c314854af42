import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWorld } from "../../src/world/build/world.js";
import {
  catalogMarkdown,
  openingComment,
  roleSummary,
  worldTaskCatalog,
} from "../../src/world/task/index.js";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";
import { taskFile, WORLD_TASKS_DIR } from "./task-sample.js";

const world = createWorld();
const DOC = join(WORLD_TASKS_DIR, "..", "docs", "world-tasks.md");
const START = /<!-- world-task-table:[^\n]*-->\n/;
const END = "<!-- /world-task-table -->";

describe("the world task catalog", () => {
  it("reads a file's opening comment as one paragraph and stops at the first other line", () => {
    expect(openingComment("# One line,\n# and two.\n#\nid: x\n# not this")).toBe("One line, and two.");
    expect(openingComment("id: x\n# late")).toBe("");
  });

  it("names each role once, in team order, with its count", () => {
    const team = ["warrior", "cook", "warrior", "miner", "warrior"].map((role) => ({ role }));
    expect(roleSummary({ team } as unknown as Parameters<typeof roleSummary>[0])).toBe(
      "warrior ×3, cook, miner",
    );
  });

  it("lists variants with their parent and counts only main tasks in the tables", () => {
    const dir = tempDir("world-list");
    const main = readFileSync(taskFile("warden-hunt"), "utf8");
    writeFileSync(join(dir, "warden-hunt.yaml"), main);
    const variant = main
      .replace("id: warden-hunt", "id: warden-hunt-v1")
      .replace("variant_of: null", "variant_of: warden-hunt")
      .replace(/\nreference:\n[\s\S]*$/, "\n");
    writeFileSync(join(dir, "warden-hunt-v1.yaml"), variant);
    const rows = worldTaskCatalog([dir], world);
    expect(rows.map((r) => [r.id, r.variantOf, r.referenceRounds === null])).toEqual([
      ["warden-hunt", null, false],
      ["warden-hunt-v1", "warden-hunt", true],
    ]);
    const md = catalogMarkdown(rows);
    expect(md).toContain("| combat | 1 | 1 | 0 | 0 | 0 |");
    expect(md).toContain("1 main tasks and 1 variants (not listed).");
    expect(md).toContain("| `warden-hunt` | combat | 3 | warrior ×2, cook |");
    expect(md).not.toContain("`warden-hunt-v1`");
  });

  it("docs/world-tasks.md shows exactly the tables of the bundled set", () => {
    const doc = readFileSync(DOC, "utf8");
    const start = doc.match(START);
    expect(start, "the world-task-table start marker").not.toBeNull();
    const from = (start?.index ?? 0) + (start?.[0].length ?? 0);
    const to = doc.indexOf(END, from);
    expect(to, "the world-task-table end marker").toBeGreaterThan(from);
    const shown = doc.slice(from, to);
    // On a mismatch: `longhaul world list --markdown` and paste it between the markers.
    expect(shown).toBe(catalogMarkdown(worldTaskCatalog([WORLD_TASKS_DIR], world)));
  });

  it("longhaul world list prints one line per task and a bad file as a user error", async () => {
    const ok = await runCli(["world", "list", taskFile("warden-hunt")]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^warden-hunt\s+combat\s+3 agents\s+\d+\/16\s+warrior ×2, cook\n$/);
    const dir = tempDir("world-list-bad");
    writeFileSync(join(dir, "bad.yaml"), "# bad\nid: bad\ncategory: cooking\n");
    const { code: status, stderr } = await runCli(["world", "list", dir]);
    expect(status).toBe(2);
    expect(stderr).toMatch(/bad\.yaml: category \(line 3\)/);
  });
});
