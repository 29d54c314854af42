import { z } from "zod";
import { InternalError, UserError } from "../../../core/errors.js";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { opaqueToken, stemName } from "../shared/names.js";
import { pathArg, sq } from "../shared/shell.js";
import { ident, withSqlite } from "../shared/sqlite.js";
import { checkTargets } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";
import { inspectDb } from "./sqlite-schema.js";

const Params = z.object({ scale: z.boolean() }).strict();
export type SchemaMigrationParams = z.infer<typeof Params>;

const APPLY_PY =
  "import os, sqlite3, sys; db = sqlite3.connect(sys.argv[1]); d = sys.argv[2]; " +
  '[db.executescript(open(os.path.join(d, f), encoding="utf-8").read()) for f in sorted(os.listdir(d)) if f.endswith(".sql")]; ' +
  "db.commit(); db.close()";

const TABLE_STYLES = [(n: string) => `legacy_${n}`, (n: string) => `${n}_v1`, (n: string) => `tbl_${n}`];
const COLUMN_STYLES = [(n: string) => `${n}_old`, (n: string) => `old_${n}`, (n: string) => `${n}_legacy`];

function freshName(wanted: string, taken: Set<string>): string {
  let n = wanted;
  for (let i = 2; taken.has(n.toLowerCase()); i++) n = `${wanted}${i}`;
  taken.add(n.toLowerCase());
  return n;
}

/**
 * Rewrites an SQLite database to an older schema (tables and columns under legacy names, and an
 * integer column stored scaled by 10/100/1000) and adds the numbered migration scripts that,
 * applied in order with python3's sqlite3, turn it back into the original.
 */
export const schemaMigrationTransform: Transform<SchemaMigrationParams> = {
  name: "schema-migration",
  kind: "operation",
  basic: false,
  summary: "store an SQLite database at an older schema with the migrations that bring it up to date",
  restoreDoc:
    "Apply the `.sql` files of the migrations folder to the database in file-name order (python3 sqlite3 " +
    "`executescript`); they rename tables and columns back and rescale values.",
  params: Params,
  arity: "one",
  accepts: (path, bytes) => inspectDb(path, bytes) !== undefined,
  defaultParams: (seed) => ({ scale: new Rng(seed).int(0, 3) > 0 }),
  apply({ env, targets, params, seed }) {
    checkTargets("schema-migration", env, targets);
    if (targets.length !== 1) throw new UserError("transform schema-migration binds exactly one database");
    const target = targets[0] as string;
    const bytes = env.get(target) as Uint8Array;
    const shape = inspectDb(target, bytes);
    if (shape === undefined) throw new UserError(`${target}: schema-migration needs a plain SQLite database`);
    const rng = new Rng(`schema-migration/${seed}`);
    const tableStyle = rng.pick(TABLE_STYLES);
    const columnStyle = rng.pick(COLUMN_STYLES);
    const names = new Set(shape.names);
    const renamed = rng.shuffle(shape.tables).slice(0, rng.int(1, shape.tables.length));
    const tableRenames = renamed.map((t) => ({ from: t.name, to: freshName(tableStyle(t.name), names) }));
    const columnRenames = shape.tables.flatMap((t) => {
      const taken = new Set(t.columns.map((c) => c.toLowerCase()));
      const pick = rng.shuffle(t.columns).slice(0, rng.int(0, Math.min(2, t.columns.length)));
      return pick.map((c) => ({ table: t.name, from: c, to: freshName(columnStyle(c), taken) }));
    });
    const scalable = shape.tables.flatMap((t) => t.scalable.map((c) => ({ table: t.name, column: c })));
    const scaled =
      params.scale && scalable.length > 0
        ? { ...rng.pick(scalable), factor: rng.pick([10, 100, 1000]) }
        : undefined;
    const old = withSqlite(bytes, (db) => {
      if (scaled !== undefined) {
        const c = ident(scaled.column);
        db.exec(`UPDATE ${ident(scaled.table)} SET ${c} = ${c} * ${scaled.factor} WHERE ${c} IS NOT NULL`);
      }
      for (const r of columnRenames)
        db.exec(`ALTER TABLE ${ident(r.table)} RENAME COLUMN ${ident(r.from)} TO ${ident(r.to)}`);
      for (const r of tableRenames) db.exec(`ALTER TABLE ${ident(r.from)} RENAME TO ${ident(r.to)}`);
      db.exec("VACUUM");
    }).bytes;
    const scripts: [string, string[]][] = [
      ["rename_tables", tableRenames.map((r) => `ALTER TABLE ${ident(r.to)} RENAME TO ${ident(r.from)};`)],
      [
        "rename_columns",
        columnRenames.map(
          (r) => `ALTER TABLE ${ident(r.table)} RENAME COLUMN ${ident(r.to)} TO ${ident(r.from)};`,
        ),
      ],
      [
        "rescale_values",
        scaled === undefined
          ? []
          : [
              `UPDATE ${ident(scaled.table)} SET ${ident(scaled.column)} = ${ident(scaled.column)} / ${scaled.factor} ` +
                `WHERE ${ident(scaled.column)} IS NOT NULL;`,
            ],
      ],
    ];
    const b = new TreeBuilder(env);
    b.replace(target, old);
    const used = scripts.filter(([, s]) => s.length > 0);
    const fileName = (i: number, label: string): string => `${String(i + 1).padStart(4, "0")}_${label}.sql`;
    const fits = (d: string): boolean => used.every(([label], i) => b.isFree(`${d}/${fileName(i, label)}`));
    const preferred = `migrations/${stemName(target)}`;
    let dir = preferred;
    for (let i = 0; !fits(dir); i++) {
      if (i > 1000) throw new InternalError(`schema-migration: no free migrations folder for ${target}`);
      dir = `${preferred}-${opaqueToken(rng, 6)}`;
    }
    const files = used.map(([label, sql], i) => {
      const f = `${dir}/${fileName(i, label)}`;
      const header = `-- migration ${i + 1}: ${label.replace("_", " ")} (apply in file-name order)\n`;
      b.put(f, utf8.encode(`${header}${sql.join("\n")}\n`));
      return f;
    });
    return {
      env: b.build(),
      access:
        `\`${target}\` is at an older schema version. The SQL scripts in \`${dir}/\` migrate it to the current ` +
        `schema; apply them to the database in file-name order (e.g. with python3's sqlite3 \`executescript\`) ` +
        "before reading it.",
      restore: [
        {
          run: `python3 -c ${sq(APPLY_PY)} ${pathArg(target)} ${pathArg(dir)}`,
          why: `apply the migrations in ${dir} to ${target}`,
        },
      ],
      produced: files,
      removed: [],
    };
  },
};
