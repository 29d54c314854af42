import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { z } from "zod";
import { errorMessage, InputError } from "../../core/errors.js";
import { channelDeclSchema } from "../channel/steps.js";
import { MODES } from "../child/res-json.js";
import { PlanSchema } from "../plan/schema.js";
import { TargetRecordSchema } from "../target/target-record.js";
import { CHECK_NAMES, DIAGNOSTIC_CODES } from "../verify/diagnostics.js";

export const LINEAGE_JSONL = "lineage.jsonl";
export const LINEAGE_DB = "lineage.sqlite";
/** Where the target agent's trials are kept in a lineage folder (hidden: not a dataset entry). */
export const TARGET_TRIALS_DIR = ".target-trials";

const DiagnosticSchema = z.object({
  code: z.enum(DIAGNOSTIC_CODES),
  step: z.string().nullable(),
  message: z.string(),
});

/** One node of a lineage: the root, an approved child, or a discarded candidate. */
export const LineageNodeSchema = z.object({
  id: z.string(),
  parent: z.string().nullable(),
  status: z.enum(["root", "approved", "discarded"]),
  depth: z.number().int().min(0),
  branch: z.number().int().min(0),
  mode: z.enum(MODES).nullable(),
  /** The task folder: relative to the lineage folder for children, absolute for the root; null when discarded. */
  dir: z.string().nullable(),
  seed: z.number().int().nullable(),
  /** Proposals tried (1 + repairs). */
  attempts: z.number().int().min(0),
  plan: PlanSchema.nullable(),
  env_digest: z.string().nullable(),
  checks: z.array(
    z.object({ name: z.enum(CHECK_NAMES), status: z.enum(["pass", "fail", "skipped"]), detail: z.string() }),
  ),
  diagnostics: z.array(DiagnosticSchema),
  /** Every rejected proposal for this node, in order: its attempt, its steps, why it was rejected. */
  rejections: z.array(
    z.object({ attempt: z.number().int().min(1), plan: z.string(), diagnostics: z.array(DiagnosticSchema) }),
  ),
  seconds: z.number().min(0),
  /** Of `seconds`, those spent in the verifier (every attempt); absent in older lineages. */
  verify_seconds: z.number().min(0).optional(),
  /** The proposer that planned this node ("seeded", "llm:provider:model"); absent in older lineages. */
  proposer: z.string().optional(),
  /** Model tokens the proposer spent on this node, all attempts; absent when it calls no model. */
  tokens: z.object({ input: z.number().int().min(0), output: z.number().int().min(0) }).optional(),
  /** An approved child's task checksum when it was approved (absent in older lineages). */
  checksum: z.string().optional(),
  /** A program task's node: the child's whole input channel (absent for environment-data tasks). */
  channel: channelDeclSchema.optional(),
  /** The adaptive stop's target agent on this approved child (absent without --target-agent). */
  target: TargetRecordSchema.optional(),
});
export type LineageNode = z.infer<typeof LineageNodeSchema>;

const CountSchema = z.object({ n: z.number().int() });

/**
 * A lineage kept twice beside the children: lineage.jsonl (one node a line, for people and
 * tools) and lineage.sqlite (a `nodes` table, for queries). Nodes are appended as they are decided.
 */
export class LineageStore {
  private readonly db: BetterSqlite3.Database;
  private readonly jsonl: string;

  constructor(outDir: string) {
    this.jsonl = join(outDir, LINEAGE_JSONL);
    this.db = new BetterSqlite3(join(outDir, LINEAGE_DB));
    this.db.exec(`CREATE TABLE IF NOT EXISTS nodes (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL,
      parent TEXT,
      status TEXT NOT NULL,
      depth INTEGER NOT NULL,
      branch INTEGER NOT NULL,
      dir TEXT,
      seed INTEGER,
      attempts INTEGER NOT NULL,
      transforms TEXT NOT NULL,
      env_digest TEXT,
      node TEXT NOT NULL
    )`);
  }

  add(node: LineageNode): void {
    const checked = LineageNodeSchema.parse(node);
    appendFileSync(this.jsonl, `${JSON.stringify(checked)}\n`);
    this.insert(checked);
  }

  /**
   * Makes the table hold exactly these nodes (lineage.jsonl's, on resume): a kill between the
   * two writes of add() leaves the table one node short.
   */
  sync(nodes: readonly LineageNode[]): void {
    const { n } = CountSchema.parse(this.db.prepare("SELECT COUNT(*) AS n FROM nodes").get());
    if (n === nodes.length) return;
    this.db.transaction(() => {
      this.db.exec("DELETE FROM nodes");
      for (const n of nodes) this.insert(n);
    })();
  }

  private insert(checked: LineageNode): void {
    this.db
      .prepare(
        "INSERT INTO nodes (id, parent, status, depth, branch, dir, seed, attempts, transforms, env_digest, node) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        checked.id,
        checked.parent,
        checked.status,
        checked.depth,
        checked.branch,
        checked.dir,
        checked.seed,
        checked.attempts,
        (checked.plan?.steps ?? []).map((s) => s.transform).join(","),
        checked.env_digest,
        JSON.stringify(checked),
      );
  }

  close(): void {
    this.db.close();
  }
}

/** The nodes of a lineage folder, from lineage.jsonl, in the order they were decided. */
export function readLineage(outDir: string): LineageNode[] {
  const file = join(outDir, LINEAGE_JSONL);
  if (!existsSync(file)) throw new InputError(file, undefined, undefined, "no lineage here (missing)");
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => line.trim() !== "")
    .map(({ line, i }) => {
      try {
        return LineageNodeSchema.parse(JSON.parse(line));
      } catch (e) {
        throw new InputError(file, i + 1, undefined, `not a lineage node: ${errorMessage(e).slice(0, 200)}`);
      }
    });
}
