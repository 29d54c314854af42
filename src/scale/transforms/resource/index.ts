import type { Transform } from "../../types.js";
import { archive } from "./archive.js";
import { base64 } from "./base64.js";
import { fieldRename } from "./field-rename.js";
import { formatChange } from "./format-change.js";
import { gzip } from "./gzip.js";
import { imageRotate } from "./image-rotate.js";
import { layeredWrap } from "./layered-wrap.js";
import { moveRename } from "./move-rename.js";
import { partition } from "./partition.js";
import { split } from "./split.js";
import { sqliteBlob } from "./sqlite-blob.js";
import { textReencode } from "./text-reencode.js";

/** The resource transforms of the library, in documentation order. */
export const RESOURCE_TRANSFORMS: readonly Transform<unknown>[] = [
  base64,
  gzip,
  split,
  moveRename,
  layeredWrap,
  archive,
  sqliteBlob,
  formatChange,
  fieldRename,
  partition,
  textReencode,
  imageRotate,
];
