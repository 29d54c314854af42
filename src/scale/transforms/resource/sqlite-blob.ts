import { z } from "zod";
import { cloneTree } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { code, fileOf, hexId, PathPicker, resourceTransform, rngFor, shq } from "./common.js";
import { buildSqlite, sqlIdent } from "./sqlite-file.js";

const FOLDERS = [".cache", "state", "var/db"] as const;
const TABLES = ["blobs", "objects", "files"] as const;

const params = z.object({ folder: z.enum(FOLDERS), table: z.enum(TABLES) }).strict();
type SqliteBlobParams = z.infer<typeof params>;

/** Writes every row (path, content) of the table back to its path, then deletes the database. */
const UNPACK = [
  "import os, sqlite3, sys",
  "db_path, table = sys.argv[1], sys.argv[2]",
  "db = sqlite3.connect(db_path)",
  'rows = db.execute("SELECT path, content FROM \\"%s\\" ORDER BY path" % table).fetchall()',
  "db.close()",
  "for path, content in rows:",
  "    folder = os.path.dirname(path)",
  "    if folder:",
  "        os.makedirs(folder, exist_ok=True)",
  '    with open(path, "wb") as f:',
  '        f.write(content or b"")',
  "os.remove(db_path)",
].join("\n");

export const sqliteBlob: Transform<SqliteBlobParams> = resourceTransform<SqliteBlobParams>({
  name: "sqlite-blob",
  basic: false,
  summary: "Stores several files as BLOB rows (path, content) of a table in an SQLite database.",
  restoreDoc:
    "Read each (path, content) row of the table with python3's sqlite3 module, write the content to the path, and delete the database.",
  params,
  arity: "many",
  accepts: () => true,
  defaultParams(seed) {
    const rng = rngFor("sqlite-blob/params", seed);
    return { folder: rng.pick(FOLDERS), table: rng.pick(TABLES) };
  },
  apply({ env, targets, params: p, seed }) {
    const rng = rngFor("sqlite-blob", seed);
    const paths = new PathPicker(env);
    const dbPath = paths.pick(() => `${p.folder}/${hexId(rng, 8)}.sqlite`);
    const sorted = [...targets].sort();
    const bytes = buildSqlite((db) => {
      db.exec(`CREATE TABLE ${sqlIdent(p.table)} (path TEXT PRIMARY KEY, content BLOB NOT NULL)`);
      const ins = db.prepare(`INSERT INTO ${sqlIdent(p.table)} (path, content) VALUES (?, ?)`);
      for (const t of sorted) ins.run(t, Buffer.from(fileOf(sqliteBlob, env, t)));
    });
    const out = cloneTree(env);
    for (const t of sorted) out.delete(t);
    out.set(dbPath, bytes);
    return {
      env: out,
      access:
        `${sorted.map(code).join(", ")} are stored in the SQLite database ${code(dbPath)}, table ${code(p.table)}: ` +
        "one row per file, `path` (the original path) and `content` (the file's bytes as a BLOB).",
      restore: [
        {
          run: `python3 -c ${shq(UNPACK)} ${shq(dbPath)} ${shq(p.table)}`,
          why: `write the ${sorted.length} files stored in ${dbPath} back to their paths`,
        },
      ],
      produced: [dbPath],
      removed: sorted,
    };
  },
});
