import { concatBytes, utf8 } from "./bytes.js";
import { StressError } from "./types.js";

export type Charset = "utf-8" | "utf-16le" | "utf-16be";
export const CHARSETS = ["utf-8", "utf-16le", "utf-16be"] as const;

export interface TextEncodingSpec {
  charset: Charset;
  /** UTF-16 output always carries a BOM (it is the only way a reader can tell LE from BE). */
  bom: boolean;
  newline: "lf" | "crlf";
}

const BOM8 = new Uint8Array([0xef, 0xbb, 0xbf]);

function utf16(text: string, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0xfeff, littleEndian);
  for (let i = 0; i < text.length; i++) view.setUint16(2 + i * 2, text.charCodeAt(i), littleEndian);
  return out;
}

/** "\n" not already preceded by "\r" becomes "\r\n" under crlf. */
export function encodeText(text: string, spec: TextEncodingSpec): Uint8Array {
  const body = spec.newline === "crlf" ? text.replace(/\r?\n/g, "\r\n") : text;
  switch (spec.charset) {
    case "utf-8":
      return spec.bom ? concatBytes([BOM8, utf8(body)]) : utf8(body);
    case "utf-16le":
      return utf16(body, true);
    case "utf-16be":
      return utf16(body, false);
  }
}

export interface DecodedText {
  text: string;
  spec: TextEncodingSpec;
}

/**
 * Detect the charset from the BOM (none → UTF-8), drop the BOM, and by default turn CRLF into LF.
 * A text whose first character is U+FEFF cannot survive a BOM-less UTF-8 round trip: it reads as a BOM.
 */
export function decodeText(bytes: Uint8Array, options: { normalizeNewlines?: boolean } = {}): DecodedText {
  let charset: Charset = "utf-8";
  let bom = false;
  let body = bytes;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    bom = true;
    body = bytes.subarray(3);
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    charset = "utf-16le";
    bom = true;
    body = bytes.subarray(2);
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    charset = "utf-16be";
    bom = true;
    body = bytes.subarray(2);
  }
  if (charset !== "utf-8" && body.length % 2 !== 0)
    throw new StressError(`${charset} text has an odd byte count`);
  let text: string;
  if (charset === "utf-8") text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(body);
  else {
    const view = new DataView(body.buffer, body.byteOffset, body.length);
    const units = new Array<number>(body.length / 2);
    for (let i = 0; i < units.length; i++) units[i] = view.getUint16(i * 2, charset === "utf-16le");
    text = "";
    for (let i = 0; i < units.length; i += 8192) text += String.fromCharCode(...units.slice(i, i + 8192));
  }
  const newline = text.includes("\r\n") ? "crlf" : "lf";
  if (options.normalizeNewlines ?? true) text = text.replace(/\r\n/g, "\n");
  return { text, spec: { charset, bom, newline } };
}
