import { InputError } from "../core/errors.js";

export interface CsvField {
  value: string;
  line: number;
  col: number;
}

export interface CsvRecord {
  line: number;
  fields: CsvField[];
}

/**
 * RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF, line breaks inside quotes) that
 * remembers where every field starts, so errors can point at line and column. Blank lines and
 * lines starting with `#` (outside quotes) are skipped: published tables often carry a source note.
 */
export function readCsv(text: string, file: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  while (i < src.length) {
    if (src[i] === "\n" || src[i] === "\r") {
      i += src[i] === "\r" && src[i + 1] === "\n" ? 2 : 1;
      line++;
      lineStart = i;
      continue;
    }
    if (src[i] === "#") {
      while (i < src.length && src[i] !== "\n" && src[i] !== "\r") i++;
      continue;
    }
    const record: CsvRecord = { line, fields: [] };
    for (;;) {
      const field: CsvField = { value: "", line, col: i - lineStart + 1 };
      if (src[i] === '"') {
        i++;
        let value = "";
        for (;;) {
          if (i >= src.length)
            throw new InputError(file, field.line, undefined, `column ${field.col}: unclosed quote`);
          const ch = src[i] as string;
          if (ch === '"') {
            if (src[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (ch === "\n" || (ch === "\r" && src[i + 1] !== "\n")) {
            line++;
            lineStart = i + 1;
          } else if (ch === "\r") {
            value += "\r\n";
            i += 2;
            line++;
            lineStart = i;
            continue;
          }
          value += ch;
          i++;
        }
        field.value = value;
        if (i < src.length && src[i] !== "," && src[i] !== "\n" && src[i] !== "\r") {
          throw new InputError(
            file,
            line,
            undefined,
            `column ${i - lineStart + 1}: unexpected text after a quoted field`,
          );
        }
      } else {
        const start = i;
        while (i < src.length && src[i] !== "," && src[i] !== "\n" && src[i] !== "\r") i++;
        field.value = src.slice(start, i);
      }
      record.fields.push(field);
      if (src[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    records.push(record);
  }
  return records;
}
