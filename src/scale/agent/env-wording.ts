/**
 * The public wording of every environment transform's access text (src/scale/transforms/**), as
 * the `follow` agent recognises it. Each entry matches the whole sentence a transform writes for
 * one application (several applications of one transform are joined by a space), with the paths
 * as capture groups, and says which of them name the files that must exist again once the
 * step's commands have run. test/scale/follow-parse.test.ts applies every registered transform
 * and fails when a sentence is not understood here, so the wording cannot drift silently.
 */

/** A path in a Markdown code span. */
const C = "`([^`]+)`";
/** A list of code spans: "`a`", "`a` and `b`", "`a`, `b` and `c`" or "`a`, `b`". */
const L = "(`[^`]+`(?:(?:, | and )`[^`]+`)*)";

export interface Wording {
  transform: string;
  /** One application's sentence; groups listed in `targets` are restored paths. */
  pattern: string;
  /** 1-based capture groups holding a restored path (or a list of them, see L). */
  targets: number[];
}

export const ENV_WORDINGS: readonly Wording[] = [
  {
    transform: "archive",
    pattern: `${L} are packed in the tar archive ${C} under their own paths; extract it from the environment root \\(\`tar -xf [^\`]+\`\\) to get them back\\.`,
    targets: [1],
  },
  {
    transform: "backfill",
    pattern: `Some cells of ${C} were blanked \\(left (?:empty|\`null\`)\\); ${C} lists them, one per line with columns \`row\`, \`column\` and \`value\`: in .+?, column \`column\` held \`value\`\\. Fill them back to get the original table \\(\`python3 [^\`]+ backfill\` does this in place\\)\\.`,
    targets: [1],
  },
  {
    transform: "base64",
    pattern: `${C} is stored base64-encoded as ${C}; decode it \\(for example with \`base64 -d\`\\) to get the original bytes\\.`,
    targets: [1],
  },
  {
    transform: "cross-reference",
    pattern: `${L} (?:was|were) moved\\. Where each file is now is recorded in the (?:SQLite database|INI file|JSON file|CSV file) ${C} .+?, keyed by its original path; locations are relative to the environment root\\.`,
    targets: [1],
  },
  {
    transform: "decoy-records",
    pattern: `${C} now also holds decoy records: its column ${C} reads ${C} for the real rows and something else \\(such as \`retracted\`\\) for decoys\\. The original table is the ${C} rows, in order, without the ${C} column \\(\`python3 [^\`]+ drop-flagged\` does this in place\\)\\.`,
    targets: [1],
  },
  {
    transform: "field-rename",
    pattern: `In ${C}, (?:its CSV header's column names|the keys of its JSON objects|[^.]+?) have been replaced by opaque codes \\([^)]*…\\)\\. The data dictionary ${C} maps each code to the original name in its \`fields\` object; the values are unchanged\\.`,
    targets: [1],
  },
  {
    transform: "fk-normalize",
    pattern: `${C} is stored normalised: its rows, in order, are in ${C}, where column ${C} holds integer ids into ${C} \\(columns \`id\` and \`value\`\\)\\. Replace each id by its value and name the column ${C} again to get the original table \\(\`python3 [^\`]+ join\` does this\\)\\.`,
    targets: [1],
  },
  {
    transform: "format-change",
    pattern: `${C} has been converted to the (?:SQLite database|JSONL file|CSV file) ${C}.+?\\. Convert it back to (?:CSV|JSONL|TSV|JSON) to use it as before\\.`,
    targets: [1],
  },
  {
    transform: "gzip",
    pattern: `${C} is stored gzip-compressed as ${C}; decompress it \\(for example with \`gzip -dc\`\\) to read it\\.`,
    targets: [1],
  },
  {
    transform: "image-rotate",
    pattern: `The image ${C} is stored rotated (?:90|180|270) degrees clockwise\\. Rotate it (?:90|180|270) degrees clockwise to see it upright, for example \`python3 [^\`]+\` \\(a standard-library tool for 8-bit RGB/RGBA PNG\\)\\.`,
    targets: [1],
  },
  {
    transform: "layered-wrap",
    pattern: `${C} is stored in ${C} under \\d+ nested encodings\\. Undo them from the outside in: (?:\\d+\\. [^;]+?)(?:; \\d+\\. [^;]+?)*\\. The result is the original file\\.`,
    targets: [1],
  },
  {
    transform: "move-rename",
    pattern: `${C} has been moved, byte for byte, to ${C}\\.`,
    targets: [1],
  },
  {
    transform: "partition",
    pattern: `The rows of ${C} have been split by the value of its .+? into \\d+ files in ${C}, .+?: ${L}\\. Together they hold every row exactly once \\(the original row order is not kept\\)\\.`,
    targets: [1],
  },
  {
    transform: "split",
    pattern: `${C} has been cut into \\d+ pieces; ${C} lists them in order, one name per line \\(names relative to its folder\\)\\. Concatenate the pieces in that order to get the original bytes\\.`,
    targets: [1],
  },
  {
    transform: "sqlite-blob",
    pattern: `${L} are stored in the SQLite database ${C}, table ${C}: one row per file, \`path\` \\(the original path\\) and \`content\` \\(the file's bytes as a BLOB\\)\\.`,
    targets: [1],
  },
  {
    transform: "text-reencode",
    pattern: `${C} is stored in (?:Latin-1 \\(ISO-8859-1\\), not UTF-8; decode it as Latin-1|UTF-16 little-endian with a byte-order mark \\(FF FE\\), not UTF-8; decode it as UTF-16) to read it\\.`,
    targets: [1],
  },
  {
    transform: "manifest",
    pattern: `${L} (?:is|are) no longer at (?:its path|their paths)\\. The manifest ${C} maps each logical path to the file's current location \\(\`entries\\[<path>\\]\\.location\`, relative to the environment root\\)\\.`,
    targets: [1],
  },
  {
    transform: "nested-manifest",
    pattern: `${L} moved to opaque locations recorded in a manifest of manifests\\. Start at ${C}: in each manifest, \`entries\\[<path>\\]\` has either \`manifest\` \\(the next manifest to read\\) or \`location\` \\(the file's current path\\); all paths are relative to the environment root\\. There are \\d+ levels\\.`,
    targets: [1],
  },
  {
    transform: "pointer-chain",
    pattern: `${L} (?:was|were) moved; start at ${L}\\. A \`\\.ptr\` file holds one line, the path \\(relative to the environment root\\) of the next file; keep following until a path that does not end in \`\\.ptr\`: that is where the file is now\\.`,
    targets: [1],
  },
  {
    transform: "versions",
    pattern: `${L} (?:is|are) kept as several versions in ${L}: subfolders \`v1\`, \`v2\`, \\.\\.\\. each hold a copy, most of them stale\\. The file \`CURRENT\` in that folder names the live version \\(e\\.g\\. \`v2\`\\); only that one is the file\\.`,
    targets: [1],
  },
  {
    transform: "index-repair",
    pattern: `${C} is stored as records in ${C} with the index ${C}, which is damaged \\(entries out of order, every offset shifted by an unknown constant\\)\\. Repair it first with \`python3 [^\`]+\`, then run \`python3 [^\`]+\`\\.`,
    targets: [1],
  },
  {
    transform: "local-service",
    pattern: `${L} (?:is|are) only available from a local service: start \`python3 [^\`]+\` in the background \\(it listens on 127\\.0\\.0\\.1:\\d+\\) and GET \`[^\`]+/files/<URL-encoded path>\` \\(\`[^\`]+/index\` lists the paths\\), e\\.g\\. with \`python3 [^\`]+ URL OUT\`, which waits for the port\\. Stop the server afterwards \\(GET \`[^\`]+/shutdown\`, or kill it\\)\\.`,
    targets: [1],
  },
  {
    transform: "lock-file",
    pattern: `${C} is packed in ${C}, which is locked: ${C} is a lease naming its holder\\. \`python3 [^\`]+ unpack [^\`]+\` refuses while the lock exists; release it first with \`python3 [^\`]+ release [^\`]+ --holder <holder from the lock file>\` \\(it checks the pack is intact\\)\\.`,
    targets: [1],
  },
  {
    transform: "prepare-step",
    pattern: `${L} must be prepared before use: (?:it is|they are) packed in ${C}\\. From the environment root run \`python3 [^\`]+\`, which exports every entry to its path \\(or \`python3 [^\`]+ NAME OUT\` for one entry\\)\\.`,
    targets: [1],
  },
  {
    transform: "schema-migration",
    pattern: `${C} is at an older schema version\\. The SQL scripts in ${C} migrate it to the current schema; apply them to the database in file-name order \\(e\\.g\\. with python3's sqlite3 \`executescript\`\\) before reading it\\.`,
    targets: [1],
  },
  {
    transform: "staged-keys",
    pattern: `${C} is encrypted as ${C}\\. Its key is split into parts \\(hex files in different folders\\); ${C} lists them in order and says how to combine them \\(\`xor\`: XOR all parts; \`concat\`: concatenate in the listed order\\)\\. \`python3 [^\`]+\` combines the parts and decrypts \\(keystream SHA-256\\(key \\|\\| 8-byte big-endian counter\\) XOR\\)\\.`,
    targets: [1],
  },
  {
    transform: "unlock-key",
    pattern: `${C} is encrypted as ${C}; its key \\(hex\\) is in ${C}\\. Decrypt with \`python3 [^\`]+\` \\(keystream SHA-256\\(key \\|\\| 8-byte big-endian block counter\\) XORed with the data after an 8-byte magic and a 32-byte tag\\)\\.`,
    targets: [1],
  },
];

export interface Recognised {
  transform: string;
  /** Paths the step brings back (they must exist once its commands have run). */
  targets: string[];
}

/** Splits a code-span list ("`a`, `b` and `c`") into its paths. */
function codeSpans(list: string): string[] {
  return [...list.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
}

/**
 * The transform whose wording `access` is (one or more applications of it, joined by a space),
 * with the paths it restores; null when no known wording covers the whole text.
 */
export function recogniseAccess(
  access: string,
  wordings: readonly Wording[] = ENV_WORDINGS,
): Recognised | null {
  const text = access.replace(/\s*\n\s*/g, " ").trim();
  for (const w of wordings) {
    const one = new RegExp(`^${w.pattern}`);
    const targets: string[] = [];
    let rest = text;
    let ok = false;
    for (let guard = 0; guard < 64; guard++) {
      const m = one.exec(rest);
      if (m === null) break;
      for (const g of w.targets) {
        const v = m[g] ?? "";
        targets.push(...(v.includes("`") ? codeSpans(v) : [v]));
      }
      rest = rest.slice(m[0].length);
      if (rest === "") {
        ok = true;
        break;
      }
      if (!rest.startsWith(" ")) break;
      rest = rest.slice(1);
    }
    if (ok) return { transform: w.transform, targets };
  }
  return null;
}
