import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { formatCatalog, registerModelsCommand } from "../../src/cli/commands/models.js";
import { modelCatalog } from "../../src/models/catalog.js";

describe("longhaul models", () => {
  it("reports which providers are ready from the environment", () => {
    const c = modelCatalog(
      { ANTHROPIC_API_KEY: "k", LONGHAUL_BASE_URL: "http://localhost:8000/v1" },
      "/nonexistent",
    );
    const by = Object.fromEntries(c.providers.map((p) => [p.name, p]));
    expect(by.anthropic).toMatchObject({ ready: true, api_key_from: "ANTHROPIC_API_KEY" });
    expect(by.openai).toMatchObject({ ready: false, api_key_from: null });
    expect(by["openai-compatible"]).toMatchObject({ ready: true, base_url: "http://localhost:8000/v1" });
    expect(c.models.length).toBeGreaterThan(5);
    expect(c.models.every((m) => m.source === "default")).toBe(true);
  });

  it("shows user prices with their source and prints JSON with --json", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lh-models-"));
    const file = join(dir, "pricing.json");
    writeFileSync(
      file,
      JSON.stringify({
        models: { "openai-compatible:my-vllm": { input: 0.05, output: 0.1, context_window: 32768 } },
      }),
    );
    const c = modelCatalog({}, file);
    const mine = c.models.find((m) => m.id === "openai-compatible:my-vllm");
    expect(mine).toMatchObject({
      input_per_mtok: 0.05,
      cached_input_per_mtok: 0.05,
      context_window: 32768,
      source: file,
    });
    expect(formatCatalog(c)).toMatch(/openai-compatible:my-vllm\s+0\.050\s+0\.050\s+0\.050\s+0\.100\s+32768/);

    const chunks: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => {
      chunks.push(s);
      return true;
    }) as typeof process.stdout.write;
    try {
      const program = new Command();
      registerModelsCommand(program);
      await program.parseAsync(["node", "longhaul", "models", "--json", "--pricing", file]);
    } finally {
      process.stdout.write = write;
    }
    const doc = JSON.parse(chunks.join("")) as { models: { id: string }[]; pricing_file: string };
    expect(doc.pricing_file).toBe(file);
    expect(doc.models.map((m) => m.id)).toContain("openai-compatible:my-vllm");
  });
});
