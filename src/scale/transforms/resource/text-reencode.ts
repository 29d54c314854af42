import { z } from "zod";
import { cloneTree } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { code, fileOf, resourceTransform, rngFor, shq, utf8Text } from "./common.js";

const ENCODINGS = ["utf-16le", "latin-1"] as const;

const params = z.object({ encoding: z.enum(ENCODINGS) }).strict();
type ReencodeParams = z.infer<typeof params>;

/** Converts a file in place from `codec` (a Python codec name) to UTF-8. */
const TO_UTF8 = [
  "import sys",
  "path, codec = sys.argv[1], sys.argv[2]",
  'with open(path, "rb") as f:',
  "    data = f.read()",
  'with open(path, "wb") as f:',
  '    f.write(data.decode(codec).encode("utf-8"))',
].join("\n");

/** Latin-1 is lossless only when every character is below U+0100, and a change only if one is above U+007F. */
function latin1Fits(text: string): boolean {
  let wide = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return false;
    if (c > 0x7f) wide = true;
  }
  return wide;
}

export const textReencode: Transform<ReencodeParams> = resourceTransform<ReencodeParams>({
  name: "text-reencode",
  basic: false,
  summary:
    "Re-encodes a UTF-8 text file in place as UTF-16LE with a byte-order mark, or Latin-1 where lossless.",
  restoreDoc:
    "Decode the file with the named encoding and write it back as UTF-8 (python3 bytes.decode/encode).",
  params,
  arity: "one",
  accepts: (_path, bytes) => {
    const text = utf8Text(bytes);
    return text !== undefined && text.length > 0 && !text.includes("\0");
  },
  defaultParams(seed) {
    return { encoding: rngFor("text-reencode/params", seed).pick(ENCODINGS) };
  },
  apply({ env, targets, params: p }) {
    const [target] = targets as [string];
    const text = utf8Text(fileOf(textReencode, env, target)) as string;
    const latin1 = p.encoding === "latin-1" && latin1Fits(text);
    const bytes = latin1
      ? new Uint8Array(Buffer.from(text, "latin1"))
      : new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    const out = cloneTree(env);
    out.set(target, bytes);
    const codec = latin1 ? "latin-1" : "utf-16";
    return {
      env: out,
      access: latin1
        ? `${code(target)} is stored in Latin-1 (ISO-8859-1), not UTF-8; decode it as Latin-1 to read it.`
        : `${code(target)} is stored in UTF-16 little-endian with a byte-order mark (FF FE), not UTF-8; decode it as UTF-16 to read it.`,
      restore: [
        {
          run: `python3 -c ${shq(TO_UTF8)} ${shq(target)} ${codec}`,
          why: `convert ${target} from ${latin1 ? "Latin-1" : "UTF-16"} back to UTF-8`,
        },
      ],
      produced: [],
      removed: [],
    };
  },
});
