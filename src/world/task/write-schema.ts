import { writeFileSync } from "node:fs";
import { worldTaskJsonSchema } from "./schema.js";

// Usage: npx tsx src/world/task/write-schema.ts   (rewrites docs/world-task.schema.json)
export const SCHEMA_FILE = "docs/world-task.schema.json";

export function worldTaskSchemaText(): string {
  return `${JSON.stringify(worldTaskJsonSchema(), null, 2)}\n`;
}

if (process.argv[1]?.endsWith("write-schema.ts") === true) {
  writeFileSync(SCHEMA_FILE, worldTaskSchemaText());
  process.stdout.write(`${SCHEMA_FILE}\n`);
}
