import { gzipSync } from "node:zlib";
import { shq } from "./common.js";

export const LAYER_KINDS = ["base64", "hex", "gzip"] as const;
/** One reversible byte encoding a wrapping transform can apply. */
export type LayerKind = (typeof LAYER_KINDS)[number];

/** Breaks `text` into lines of `width` characters, each ending in a newline ("" stays ""). */
function wrapLines(text: string, width: number): string {
  if (text === "") return "";
  if (width <= 0) return `${text}\n`;
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += width) lines.push(text.slice(i, i + width));
  return `${lines.join("\n")}\n`;
}

/** Base64 text wrapped like coreutils `base64` (76 columns) or on one line (width 0). */
export function base64Text(bytes: Uint8Array, width = 76): Uint8Array {
  return Buffer.from(wrapLines(Buffer.from(bytes).toString("base64"), width), "ascii");
}

/** Lowercase hex text in lines of 64 digits. */
export function hexText(bytes: Uint8Array): Uint8Array {
  return Buffer.from(wrapLines(Buffer.from(bytes).toString("hex"), 64), "ascii");
}

/** gzip with a zero header timestamp and no file name, so the bytes depend only on the input. */
export function gzipBytes(bytes: Uint8Array, level = 9): Uint8Array {
  return new Uint8Array(gzipSync(bytes, { level }));
}

export function encodeLayer(kind: LayerKind, bytes: Uint8Array): Uint8Array {
  switch (kind) {
    case "base64":
      return base64Text(bytes);
    case "hex":
      return hexText(bytes);
    case "gzip":
      return gzipBytes(bytes);
  }
}

const UNHEX =
  'import binascii, sys; d = open(sys.argv[1], "rb").read(); ' +
  'open(sys.argv[2], "wb").write(binascii.unhexlify(b"".join(d.split())))';

/** A sh command that decodes one layer from file `from` into file `to` (both relative paths). */
export function decodeCommand(kind: LayerKind, from: string, to: string): string {
  switch (kind) {
    case "base64":
      return `base64 -d ${shq(from)} > ${shq(to)}`;
    case "hex":
      return `python3 -c ${shq(UNHEX)} ${shq(from)} ${shq(to)}`;
    case "gzip":
      return `gzip -dc < ${shq(from)} > ${shq(to)}`;
  }
}

/** How a layer is undone, in words. */
export function layerWords(kind: LayerKind): string {
  switch (kind) {
    case "base64":
      return "base64-decode";
    case "hex":
      return "hex-decode (whitespace between digits is ignored)";
    case "gzip":
      return "gunzip";
  }
}
