import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerCommands } from "../../src/cli/commands/index.js";
import { ROOT } from "../support/cli-process.js";

/**
 * Every option a command shows in its --help is documented: it appears, in its long or short form,
 * in a file of docs/ that names the command (`longhaul report`, `longhaul scale verify`, …).
 */
const DOCS = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => ({ file: f, text: readFileSync(join(ROOT, "docs", f), "utf8") }));

interface Shown {
  command: string;
  flags: string[];
}

function shownOptions(cmd: Command, path: string[] = []): Shown[] {
  return cmd.commands.flatMap((sub) => {
    const p = [...path, sub.name()];
    const help = sub.createHelp();
    const here: Shown[] = help
      .visibleOptions(sub)
      .filter((o) => o.long !== "--help")
      .map((o) => ({ command: p.join(" "), flags: [o.long, o.short].filter((f) => f !== undefined) }));
    return [...here, ...shownOptions(sub, p)];
  });
}

function undocumented(program: Command): string[] {
  return shownOptions(program).flatMap(({ command, flags }) => {
    const docs = DOCS.filter((d) => d.text.includes(`longhaul ${command}`));
    const found = docs.some((d) => flags.some((f) => new RegExp(`${f}(?![\\w-])`).test(d.text)));
    return found
      ? []
      : [`${command} ${flags.join("/")} (docs naming it: ${docs.map((d) => d.file).join(", ") || "none"})`];
  });
}

describe("the command-line docs", () => {
  it("document every option of every command", async () => {
    const program = new Command();
    await registerCommands(program);
    expect(shownOptions(program).length).toBeGreaterThan(150);
    expect(undocumented(program)).toEqual([]);
  });

  it("would name an option that no doc mentions", async () => {
    const program = new Command();
    await registerCommands(program);
    program.commands.find((c) => c.name() === "report")?.option("--no-such-option-anywhere", "x");
    const missing = undocumented(program);
    expect(missing.length).toBe(1);
    expect(missing[0]).toMatch(/^report --no-such-option-anywhere \(docs naming it: .*\breports\.md\b/);
  });
});
