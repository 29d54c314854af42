import { PNG } from "pngjs";
import { z } from "zod";
import { cloneTree, utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { code, fileOf, hexId, PathPicker, resourceTransform, rngFor, shq } from "./common.js";
import { PNG_ROTATE_PY } from "./png-tool.js";

const DEGREES = [90, 180, 270] as const;
type Degrees = (typeof DEGREES)[number];
/** Large enough for icons and charts; the placed pure-Python tool stays within seconds. */
const MAX_PIXELS = 512 * 512;
const TOOL = ".tools/png_rotate.py";

const params = z.object({ degrees: z.union([z.literal(90), z.literal(180), z.literal(270)]) }).strict();
type RotateParams = z.infer<typeof params>;

interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Clockwise rotation of RGBA pixels, the same mapping as the placed tool. */
export function rotateRgba(img: Raster, degrees: Degrees): Raster {
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(data.length);
  const nw = degrees === 180 ? w : h;
  const nh = degrees === 180 ? h : w;
  for (let y = 0; y < nh; y++) {
    for (let x = 0; x < nw; x++) {
      const [sx, sy] =
        degrees === 180 ? [w - 1 - x, h - 1 - y] : degrees === 90 ? [y, h - 1 - x] : [w - 1 - y, x];
      out.set(data.subarray((sy * w + sx) * 4, (sy * w + sx) * 4 + 4), (y * nw + x) * 4);
    }
  }
  return { width: nw, height: nh, data: out };
}

function decode(bytes: Uint8Array): Raster | undefined {
  // Bit depth is IHDR byte 24; 16-bit samples would not survive the 8-bit round trip.
  if (bytes.length < 33 || (bytes[24] ?? 16) > 8) return undefined;
  try {
    const png = PNG.sync.read(Buffer.from(bytes));
    if (png.width * png.height > MAX_PIXELS) return undefined;
    return { width: png.width, height: png.height, data: new Uint8Array(png.data) };
  } catch {
    return undefined;
  }
}

function same(a: Raster, b: Raster): boolean {
  return a.width === b.width && Buffer.from(a.data).equals(Buffer.from(b.data));
}

function encode(img: Raster): Uint8Array {
  const png = new PNG({ width: img.width, height: img.height });
  png.data.set(img.data);
  return new Uint8Array(PNG.sync.write(png, { colorType: 6, deflateLevel: 9 }));
}

export const imageRotate: Transform<RotateParams> = resourceTransform<RotateParams>({
  name: "image-rotate",
  basic: false,
  summary: "Stores a PNG image rotated by 90, 180 or 270 degrees, with a Python tool to rotate it back.",
  restoreDoc:
    "Rotate the image back with the placed standard-library tool: `python3 .tools/png_rotate.py IN OUT DEGREES` " +
    "with the complementary angle. Pixels are compared, not bytes.",
  params,
  arity: "one",
  // Only images every rotation changes, so the stored image never equals the original.
  accepts: (path, bytes) => {
    if (!path.toLowerCase().endsWith(".png")) return false;
    const img = decode(bytes);
    return img !== undefined && DEGREES.every((d) => !same(rotateRgba(img, d), img));
  },
  defaultParams(seed) {
    return { degrees: rngFor("image-rotate/params", seed).pick(DEGREES) };
  },
  apply({ env, targets, params: p, seed }) {
    const [target] = targets as [string];
    const img = decode(fileOf(imageRotate, env, target)) as Raster;
    const rng = rngFor("image-rotate", seed);
    const toolBytes = utf8.encode(PNG_ROTATE_PY);
    const existing = env.get(TOOL);
    const reuse = existing !== undefined && Buffer.from(existing).equals(Buffer.from(toolBytes));
    const tool = reuse
      ? TOOL
      : new PathPicker(env).pick((i) => (i === 0 ? TOOL : `.tools/png_rotate_${hexId(rng, 4)}.py`));
    const out = cloneTree(env);
    out.set(target, encode(rotateRgba(img, p.degrees)));
    out.set(tool, toolBytes);
    const back = (360 - p.degrees) as Degrees;
    return {
      env: out,
      access:
        `The image ${code(target)} is stored rotated ${p.degrees} degrees clockwise. Rotate it ${back} degrees clockwise ` +
        `to see it upright, for example \`python3 ${tool} ${target} upright.png ${back}\` (a standard-library tool for 8-bit RGB/RGBA PNG).`,
      restore: [
        {
          run: `python3 ${shq(tool)} ${shq(target)} ${shq(target)} ${back}`,
          why: `rotate ${target} back by ${back} degrees clockwise`,
        },
      ],
      produced: reuse ? [] : [tool],
      removed: [],
    };
  },
});
