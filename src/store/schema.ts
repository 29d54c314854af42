import type { Generated } from "kysely";

/** The SQLite index of jobs and trials. The files under <jobs-dir>/<job>/ are the source of truth. */
export interface JobsTable {
  id: string;
  created_at: string;
  updated_at: string;
  status: string;
  config_json: string;
}

export interface TrialsTable {
  trial_id: string;
  job_id: string;
  task_name: string;
  task_checksum: string;
  category: string;
  agent: string;
  model: string | null;
  attempt: number;
  seed: number;
  outcome: string;
  reward: number | null;
  self_terminated: number;
  started_at: string;
  finished_at: string;
  total_sec: number;
  cost_usd: number;
  result_json: string;
}

export interface MetaTable {
  key: string;
  value: string;
  rowid: Generated<number>;
}

export interface Database {
  jobs: JobsTable;
  trials: TrialsTable;
}
