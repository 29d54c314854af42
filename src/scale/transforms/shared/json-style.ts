/**
 * JSON text in the two layouts JSON-lines files are commonly written in, reproduced exactly so a
 * table rewritten by a transform (or by the placed Python tool) comes back byte for byte:
 * "compact" (`{"a":1,"b":[1,2]}`, what JavaScript writes) and "spaced" (`{"a": 1, "b": [1, 2]}`,
 * what Python's json.dumps writes), each with non-ASCII characters raw or escaped as \uXXXX.
 */
export interface JsonStyle {
  spaced: boolean;
  ascii: boolean;
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

/** A JSON string literal the way Python's json.dumps writes it (ensure_ascii on or off). */
export function jsonString(s: string, ascii: boolean): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    const code = s.charCodeAt(i);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (code < 0x20 || (ascii && code > 0x7e)) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Serialises a parsed JSON value in `style`; numbers use JavaScript's shortest form. */
export function jsonText(v: unknown, style: JsonStyle): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") return JSON.stringify(v);
  if (typeof v === "string") return jsonString(v, style.ascii);
  const item = style.spaced ? ", " : ",";
  if (Array.isArray(v)) return `[${v.map((x) => jsonText(x, style)).join(item)}]`;
  if (typeof v === "object") return jsonObjectText(Object.entries(v as Record<string, unknown>), style);
  throw new TypeError(`not a JSON value: ${typeof v}`);
}

/** An object from key/value pairs, in the pairs' order (no JavaScript key reordering). */
export function jsonObjectText(entries: readonly (readonly [string, unknown])[], style: JsonStyle): string {
  const kv = style.spaced ? ": " : ":";
  const parts = entries.map(([k, x]) => `${jsonString(k, style.ascii)}${kv}${jsonText(x, style)}`);
  return `{${parts.join(style.spaced ? ", " : ",")}}`;
}
