import { z } from "zod";
import { describeValue, fieldLabel, lineOfKey } from "../core/toml-source.js";

/**
 * `[metadata]`: Harbor's table is free-form (any key, any value), so a task written for Harbor
 * never fails to load over it. longhaul reads five keys for its reports; each has a type here,
 * and a value of another type is a warning and the key's default, not a refused task.
 */
const positive = z
  .number({ error: "must be a positive number" })
  .positive({ error: "must be a positive number" });
const nonEmpty = z
  .string({ error: "must be a non-empty string" })
  .min(1, { error: "must be a non-empty string" });

export const METADATA_DEFAULTS = { category: "uncategorized", difficulty: "unknown" } as const;

export const metadataSchema = z
  .object(
    {
      category: nonEmpty.default(METADATA_DEFAULTS.category),
      difficulty: nonEmpty.default(METADATA_DEFAULTS.difficulty),
      expert_time_estimate_min: positive.nullable().default(null),
      tags: z
        .array(z.string({ error: "must be a list of strings" }), { error: "must be a list of strings" })
        .default([]),
      author_name: z.string({ error: "must be a string" }).nullable().default(null),
    },
    { error: "must be a table" },
  )
  .prefault({});

/**
 * Drops each typed `[metadata]` key whose value does not fit, with a warning naming file, line and
 * key, so the schema gives it its default. Anything else (a [metadata] that is not a table) is
 * left for the schema to refuse.
 */
export function settleMetadata(
  file: string,
  text: string,
  data: Record<string, unknown>,
  warnings: string[],
): void {
  const meta = data.metadata;
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return;
  const table = meta as Record<string, unknown>;
  for (const [key, field] of Object.entries(metadataSchema.unwrap().shape)) {
    if (table[key] === undefined) continue;
    const parsed = field.safeParse(table[key]);
    if (parsed.success) continue;
    const path = ["metadata", key];
    const line = lineOfKey(text, path);
    const message = parsed.error.issues[0]?.message ?? "has the wrong type";
    warnings.push(
      `${line === undefined ? file : `${file}:${line}`}: ${fieldLabel(path)} ${message}, got ${describeValue(table[key])}; ignored (Harbor's [metadata] is free-form)`,
    );
    delete table[key];
  }
}
