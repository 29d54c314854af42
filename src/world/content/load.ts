import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../../core/index.js";
import { type ContentPack, PACK_FILES, type PackKey } from "../model/schema.js";
import { validatePack } from "./validate.js";

/** Reads `<key>.json` for every pack file in `dir` and validates the whole pack. */
export function loadPackDir(dir: string): ContentPack {
  const raw: Partial<Record<PackKey, unknown>> = {};
  let present: string[];
  try {
    present = readdirSync(dir);
  } catch (e) {
    throw new InputError(dir, undefined, undefined, `cannot read content folder: ${(e as Error).message}`);
  }
  for (const key of Object.keys(PACK_FILES) as PackKey[]) {
    const file = `${key}.json`;
    if (!present.includes(file)) continue;
    const text = readFileSync(join(dir, file), "utf8");
    try {
      raw[key] = JSON.parse(text);
    } catch (e) {
      throw new InputError(join(dir, file), undefined, undefined, `not valid JSON: ${(e as Error).message}`);
    }
  }
  return validatePack(raw);
}

/** Writes a pack as one pretty JSON file per key. */
export function writePackDir(pack: ContentPack, dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const key of Object.keys(PACK_FILES) as PackKey[]) {
    writeFileSync(join(dir, `${key}.json`), `${JSON.stringify(pack[key], null, 1)}\n`);
  }
}
