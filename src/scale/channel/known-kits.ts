import { sha256 } from "../../core/canonical-json.js";
import { sameBytes } from "../layout.js";
import { CHANNEL_DIR } from "./materialize.js";

/**
 * SHA-256 of every channel kit (kit/res_channel.py) longhaul has shipped, oldest first; the last
 * is the current one (a test holds it to that, so a change to the kit adds its digest here and
 * keeps the earlier ones). A child carries the kit it was made with, in tests/res/ and
 * solution/res/: check (b) re-derives the child with today's kit, and a child made before a kit
 * change would otherwise fail it on those two files alone, though the kit it carries is one of
 * ours and checks (c) and (d) run that very kit.
 */
export const KNOWN_KITS: readonly string[] = [
  "d7d06b0e66b23a8420fd17646b6997e9f8731c6d14322560f08c2b1c66fdeeaa",
  "f461461c544c5af89a3f6c08966dc8b04dd84c254f08dea334afffd5c399f1f5",
  "878617878d565706d45049cdef2192819fd73f782fa3c3694ba01a96fc7754d7",
  "c410bef93b1f0c55703e434b5377b9a1a978a78f2e48e9312c1d0008f81c7313",
  "386581c8606c018c46151d14360894623c8eaa4ee9dc23dcc30caac8e3db3cea",
  "d9a8471518507b325dc1d3702ac1866a5061fcfa6f0f92d2dc45c5d77cf076a8",
  "afe9bd2f8b400f0b6fa5a2499eaeecb66c30bbb6dfaf048bf61a56e8d9137efd",
  "c6cf164c27a38899cdb4f40de989758d136c8d774c6bc51a06b0c18d5df116ec",
  "27ac6d79ffafa515ab3850b65e23e381a6e1ccd307b59f65fd738bc266691c16",
  "b15c5d998db534dc1a8b8734c72a317cc13c8a40501f802e0bf208aac7ccec86",
  "6d0b89362af0aa279db32b5f0e7ba5d402c6b0dd6dcd2acf0a0f1e0520ff5db5",
  "05f85cf0cc6495e9e84a419bf2bf44e2e70de4e99abda71e84ec3cf7cab63070",
  "2b0870f7b9bf64f8dfd86adbfc8969e9c53f0b073ea898372d191ecc65e03dde",
  "6b6747ea74fa2dcc3ca262d67cfa195315a84e8e3e1c6df7e745637670048f8c",
  "0ff47d91a56dc465b1718b91ebc334623e5377de4b9e2db56ec1d546e6c455b7",
  "102c1ce14cb34a8694aff709232deaebb5949b0f8b477a2a0531201b46d1cef6",
  "d328803c43cbb1afff3f22aff378866566d92f35e2cb80cfb2893bd09217cac1",
  "ce36ca342a14a5dd5fa8eef0ea701adb3db9618463817296006d4e6be5195057",
];

/** The kit's place in tests/ and in solution/. */
const KIT = `${CHANNEL_DIR}/res_channel.py`;

/**
 * When the child carries an earlier shipped kit (the same bytes in tests/res/ and solution/res/,
 * a digest in KNOWN_KITS) where today's derivation puts the current one, `expected` takes the
 * child's kit in both places, and the kit's digest is returned; otherwise nothing changes and
 * the result is null. Every other file is still compared with today's derivation.
 */
export function acceptEarlierKit(
  expected: Map<string, Uint8Array>,
  child: { tests: ReadonlyMap<string, Uint8Array>; solution: ReadonlyMap<string, Uint8Array> },
): string | null {
  const kit = child.tests.get(KIT);
  const current = expected.get(`tests/${KIT}`);
  if (kit === undefined || current === undefined) return null;
  if (sameBytes(kit, current) || !sameBytes(kit, child.solution.get(KIT))) return null;
  const digest = sha256(kit);
  if (!KNOWN_KITS.includes(digest)) return null;
  for (const p of [`tests/${KIT}`, `solution/${KIT}`]) if (expected.has(p)) expected.set(p, kit);
  return digest;
}
