import type { Rng } from "../core/rng.js";
import { type Row, StressError } from "./types.js";

/** camel: fooBar, pascal: FooBar, snake: foo_bar, kebab: foo-bar, upper: FOO_BAR, dotted: foo.bar, spaced: Foo Bar */
export type KeyStyle = "camel" | "pascal" | "snake" | "kebab" | "upper" | "dotted" | "spaced";
export const KEY_STYLES = ["camel", "pascal", "snake", "kebab", "upper", "dotted", "spaced"] as const;

/**
 * Words of a key, lowercased: "userID_v2" → ["user", "id", "v2"]; "Max-Temp C" → ["max", "temp", "c"].
 * Case changes only split keys that have lowercase letters (so "MAX_T0A" is words max, t0a). Runs of
 * one-letter words in camel/pascal ("aBC") cannot be told from acronyms and split as ["a", "bc"], and a
 * pascal key with no lowercase letter ("A0B1") reads as one upper-case word.
 */
export function splitWords(key: string): string[] {
  const cased = /[a-z]/.test(key)
    ? key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    : key;
  return cased
    .split(/[\s_\-.]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

const cap = (w: string): string => (w.length === 0 ? w : w[0]?.toUpperCase() + w.slice(1));

export function styleKey(key: string, style: KeyStyle): string {
  const words = splitWords(key);
  if (words.length === 0) return key;
  switch (style) {
    case "camel":
      return words.map((w, i) => (i === 0 ? w : cap(w))).join("");
    case "pascal":
      return words.map(cap).join("");
    case "snake":
      return words.join("_");
    case "kebab":
      return words.join("-");
    case "upper":
      return words.join("_").toUpperCase();
    case "dotted":
      return words.join(".");
    case "spaced":
      return words.map(cap).join(" ");
  }
}

/** A style-free form for matching keys: every style of a key normalises to the same string. */
export function normalizeKey(key: string): string {
  return splitWords(key).join("_");
}

export interface RenameOptions {
  /** One style for all keys; omitted → each key gets a seed-chosen style. */
  style?: KeyStyle;
  /** Synonyms per original key (e.g. temp: ["temperature", "t"]); chosen with probability aliasRate. */
  aliases?: Record<string, readonly string[]>;
  aliasRate?: number;
}

export interface RenameResult {
  rows: Row[];
  /** new key → original key; the mapping is one-to-one. */
  mapping: Record<string, string>;
}

/** Rename every key consistently across rows. Collisions fall back to the original key, then a suffix. */
export function renameFields(rng: Rng, rows: readonly Row[], options: RenameOptions = {}): RenameResult {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  const originals = [...seen];
  const used = new Set<string>();
  const forward = new Map<string, string>();
  for (const key of originals) {
    const aliases = options.aliases?.[key] ?? [];
    const style = options.style ?? rng.pick(KEY_STYLES);
    const candidates: string[] = [];
    if (aliases.length > 0 && rng.next() < (options.aliasRate ?? 0.5)) {
      candidates.push(styleKey(rng.pick(aliases), style));
    }
    candidates.push(styleKey(key, style), key);
    let chosen = candidates.find((c) => c.length > 0 && !used.has(c) && (!seen.has(c) || c === key));
    for (let n = 2; chosen === undefined; n++) {
      const c = `${key}_${n}`;
      if (!used.has(c) && !seen.has(c)) chosen = c;
    }
    used.add(chosen);
    forward.set(key, chosen);
  }
  const mapping: Record<string, string> = {};
  for (const [from, to] of forward) mapping[to] = from;
  return {
    rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [forward.get(k) ?? k, v]))),
    mapping,
  };
}

/** Undo `renameFields` with its mapping. */
export function restoreFields(rows: readonly Row[], mapping: Record<string, string>): Row[] {
  return rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => {
        const original = mapping[k];
        if (original === undefined) throw new StressError(`restoreFields: key ${k} is not in the mapping`);
        return [original, v];
      }),
    ),
  );
}
