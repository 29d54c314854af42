import type { Rng } from "../../../core/rng.js";

const OPAQUE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** A seeded opaque token (lowercase letters and digits without look-alikes), e.g. for hidden file names. */
export function opaqueToken(rng: Rng, length = 10): string {
  let out = "";
  for (let i = 0; i < length; i++) out += OPAQUE_ALPHABET[rng.int(0, OPAQUE_ALPHABET.length - 1)];
  return out;
}

/** Seeded random bytes. */
export function randomBytes(rng: Rng, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = rng.int(0, 255);
  return out;
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

/** The last path part ("data/a.csv" -> "a.csv"). */
export function baseName(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? path : path.slice(i + 1);
}

/** The folder part, "" at the root ("data/a.csv" -> "data"). */
export function dirName(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** The extension without its dot, lowercased ("a.CSV" -> "csv"; "" when none). */
export function extension(path: string): string {
  const b = baseName(path);
  const i = b.lastIndexOf(".");
  return i <= 0 ? "" : b.slice(i + 1).toLowerCase();
}

/** The base name without its extension ("data/a.tar.gz" -> "a.tar"). */
export function stemName(path: string): string {
  const b = baseName(path);
  const i = b.lastIndexOf(".");
  return i <= 0 ? b : b.slice(0, i);
}

/** Joins a folder (possibly "") and a relative name. */
export function inDir(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}
