import { InputError } from "../core/errors.js";

export interface JsonRow {
  line: number;
  col: number;
  value: unknown;
}

/** Line and column (1-based) of a character offset. */
export function positionOf(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: offset - lineStart + 1 };
}

function parseOrThrow(text: string, file: string, lineBase: number): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec(e instanceof Error ? e.message : "");
    const detail = e instanceof Error ? e.message : String(e);
    if (m?.[1] === undefined) throw new InputError(file, lineBase, undefined, `invalid JSON: ${detail}`);
    const pos = positionOf(text, Number(m[1]));
    throw new InputError(
      file,
      lineBase + pos.line - 1,
      undefined,
      `column ${pos.col}: invalid JSON: ${detail}`,
    );
  }
}

/** Offsets where each element of a top-level JSON array starts (the text is known to be valid). */
function elementOffsets(text: string): number[] {
  const out: number[] = [];
  let depth = 0;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      if (depth === 1 && expectValue) {
        out.push(i);
        expectValue = false;
      }
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      continue;
    }
    if (ch === " " || ch === "\n" || ch === "\r" || ch === "\t") continue;
    if (depth === 1 && expectValue && ch !== "]") {
      out.push(i);
      expectValue = false;
    }
    if (ch === "[" || ch === "{") {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (ch === "]" || ch === "}") depth--;
    else if (ch === "," && depth === 1) expectValue = true;
  }
  return out;
}

/**
 * Rows of a JSON array of objects, or of JSON Lines (one object per line), each with the line
 * and column where it starts so row errors can point into the file.
 */
export function readJsonRows(text: string, file: string): JsonRow[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("[")) {
    const value = parseOrThrow(text, file, 1);
    if (!Array.isArray(value)) throw new InputError(file, 1, undefined, "expected an array of rows");
    const offsets = elementOffsets(text);
    return value.map((v, i) => ({ ...positionOf(text, offsets[i] ?? 0), value: v }));
  }
  const rows: JsonRow[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.trim() === "") continue;
    const col = raw.length - raw.trimStart().length + 1;
    rows.push({ line: i + 1, col, value: parseOrThrow(raw, file, i + 1) });
  }
  return rows;
}
