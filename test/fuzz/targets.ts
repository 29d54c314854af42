import fc from "fast-check";
import { parseExternalResults } from "../../src/analysis/external-results.js";
import { InputError, LonghaulError, UserError } from "../../src/core/errors.js";
import { scoreTrial } from "../../src/grading/reward.js";
import { parseRubric } from "../../src/grading/rubric.js";
import type { Rubric } from "../../src/grading/types.js";
import { parseJobConfig } from "../../src/store/job-config.js";
import { parseTaskConfig } from "../../src/task/config.js";

/**
 * Every input format longhaul reads from a file or a wire, as fuzz targets. The property is the
 * same for all: the input parses, or the failure is a user-facing error (or a structured result)
 * that names the file, and a line or field where the format has them. Anything else (TypeError,
 * RangeError, an internal error, a hang) is a finding.
 */
export interface FuzzTarget {
  name: string;
  /** Fixed examples that must pass the property (and the seeds mutations start from). */
  seeds: readonly string[];
  /** Undefined when the input is fine; otherwise why the property failed. */
  check(input: string): Promise<string | undefined> | string | undefined;
}

/** A user error naming `file`, with a line or field when `lined`. */
function userErrorProblem(e: unknown, file: string, lined: boolean): string | undefined {
  if (!(e instanceof UserError)) return `threw ${describeError(e)}`;
  if (!e.message.includes(file)) return `message does not name ${file}: ${e.message}`;
  if (lined && e instanceof InputError && e.line === undefined && e.field === undefined) {
    return `no line or field: ${e.message}`;
  }
  if (lined && !(e instanceof InputError)) return `not an InputError (no line or field): ${e.message}`;
  return undefined;
}

export function describeError(e: unknown): string {
  if (e instanceof LonghaulError) return `${e.name} (${e.kind}): ${e.message}`;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return `non-error ${String(e)}`;
}

/** How many inputs each file name parsed or had refused, so a run shows both paths were taken. */
export const tally = new Map<string, { parsed: number; refused: number }>();

function parses(file: string, lined: boolean, parse: (text: string) => unknown) {
  return (text: string): string | undefined => {
    const t = tally.get(file) ?? { parsed: 0, refused: 0 };
    tally.set(file, t);
    try {
      parse(text);
      t.parsed++;
      return undefined;
    } catch (e) {
      t.refused++;
      return userErrorProblem(e, file, lined);
    }
  };
}

// ---------------------------------------------------------------- generators of broken text

/** Random edits of a valid document: the usual ways a hand-written file goes wrong. */
export function mutated(seeds: readonly string[], pieces: readonly string[]): fc.Arbitrary<string> {
  const edit = fc.oneof(
    fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
    fc.record({
      kind: fc.constant("insert" as const),
      at: fc.nat(),
      text: fc.oneof(
        fc.constantFrom(...pieces),
        fc.string({ maxLength: 8 }),
        fc.string({ unit: "binary", maxLength: 4 }),
      ),
    }),
    fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), len: fc.integer({ min: 1, max: 12 }) }),
    fc.record({ kind: fc.constant("dupLine" as const), at: fc.nat() }),
  );
  return fc
    .tuple(fc.constantFrom(...seeds), fc.array(edit, { minLength: 1, maxLength: 4 }))
    .map(([seed, edits]) => {
      let s = seed;
      for (const e of edits) {
        const at = s.length === 0 ? 0 : e.at % (s.length + 1);
        if (e.kind === "cut") s = s.slice(0, at);
        else if (e.kind === "insert") s = s.slice(0, at) + e.text + s.slice(at);
        else if (e.kind === "delete") s = s.slice(0, at) + s.slice(at + e.len);
        else {
          const lines = s.split("\n");
          const i = lines.length === 0 ? 0 : e.at % lines.length;
          lines.splice(i, 0, lines[i] ?? "");
          s = lines.join("\n");
        }
      }
      return s;
    });
}

const tomlValue = fc.oneof(
  fc.integer().map(String),
  fc
    .double({ noNaN: false })
    .map((d) =>
      Number.isFinite(d) ? String(d).replace("e+", "e") : Number.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf",
    ),
  fc.constantFrom(
    "0",
    "-1",
    "1.5",
    "100.5",
    "1e300",
    "9007199254740993",
    "true",
    "false",
    '""',
    '"/"',
    '"/tmp/x"',
    '"/app/../etc"',
    '"a\\u0000b"',
    "[]",
    "[1, 2]",
    '["a", 3]',
    "{}",
    "{ a = 1 }",
    "1979-05-27T07:32:00Z",
    "1979-05-27",
    "07:32:00",
    "0x10",
    "0o7",
    "0b1",
    "+inf",
    "nan",
  ),
  fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)),
);

/** TOML documents built from the sections and keys a schema knows, with values of any type. */
function tomlDocs(sections: readonly { header: string; keys: readonly string[] }[]): fc.Arbitrary<string> {
  const table = fc
    .constantFrom(...sections)
    .chain((sec) =>
      fc
        .array(fc.tuple(fc.constantFrom(...sec.keys, "unknown_key"), tomlValue), { maxLength: 6 })
        .map((kvs) => `${sec.header}\n${kvs.map(([k, v]) => `${k} = ${v}`).join("\n")}\n`),
    );
  return fc.array(table, { maxLength: 5 }).map((ts) => ts.join("\n"));
}

// ---------------------------------------------------------------- targets

const TASK_TOML = `version = "1.0"
[task]
name = "sum-numbers"
description = "Add numbers"
[metadata]
category = "data"
difficulty = "easy"
expert_time_estimate_min = 5
tags = ["a", "b"]
author_name = "someone"
[agent]
timeout_sec = 600
[verifier]
timeout_sec = 120
[environment]
cpus = 2
memory_mb = 1024
storage_mb = 2048
allow_internet = false
workdir = "/app"
build_timeout_sec = 300
[requires]
host_tools = ["python3"]
`;

const RUBRIC_TOML = `[[subtask]]
id = "public_sum"
weight = 1
kind = "binary"
visibility = "public"
description = "sum.txt holds the sum"

[[subtask]]
id = "hidden_stress"
weight = 3
kind = "continuous"
visibility = "hidden"
`;

const TOML_PIECES = [
  "[",
  "]",
  "[[subtask]]",
  "[environment]",
  "=",
  '"',
  "'",
  "\n",
  "#",
  "= 1.5",
  "= -3",
  '= "/"',
  "\\",
  "{",
  "}",
  ",",
];

const taskToml: FuzzTarget = {
  name: "task.toml",
  seeds: [TASK_TOML, "", "[agent]\ntimeout_sec = 30\n"],
  check: parses("task.toml", true, (t) => parseTaskConfig("task.toml", t)),
};

const rubricToml: FuzzTarget = {
  name: "rubric.toml",
  seeds: [RUBRIC_TOML],
  check: parses("rubric.toml", true, (t) => parseRubric("rubric.toml", t)),
};

const RUBRIC: Rubric = parseRubric("rubric.toml", RUBRIC_TOML);

/** reward.json, reward.txt and reward-details.json, joined by a NUL so one string carries all three. */
const rewardFiles: FuzzTarget = {
  name: "reward files",
  seeds: [
    '{"public_sum": 1, "hidden_stress": 0.5}\u0000\u0000{"subtasks": {"public_sum": {"message": "ok"}}}',
    "\u00000.75\u0000",
    '{"reward": 1}\u0000\u0000',
  ],
  check(input) {
    const [json, txt, details] = input.split("\u0000");
    const blank = (s: string | undefined): string | null => (s === undefined || s === "" ? null : s);
    try {
      for (const rubric of [
        RUBRIC,
        {
          subtasks: [{ id: "reward", weight: 1, kind: "continuous", visibility: "hidden", description: "" }],
          source: null,
        } satisfies Rubric,
      ]) {
        const r = scoreTrial({
          rewardJson: blank(json),
          rewardTxt: blank(txt),
          detailsJson: blank(details),
          rubric,
        });
        if (r.failed !== (r.reward === null)) return `failed=${r.failed} but reward=${r.reward}`;
        if (r.failed && !r.gradingErrors.some((e) => /reward/.test(e))) {
          return `failed without naming the reward file: ${JSON.stringify(r.gradingErrors)}`;
        }
        if (r.reward !== null && !(r.reward >= 0 && r.reward <= 1))
          return `reward ${r.reward} outside [0, 1]`;
      }
      return undefined;
    } catch (e) {
      return `scoreTrial threw ${describeError(e)}`;
    }
  },
};

const CSV = `task,agent,model,attempt,reward,outcome,self_terminated,category,cost_usd,turns
sum,tools,openai:gpt,1,0.5,completed,true,data,0.01,4
sum,tools,openai:gpt,2,28%,completed,no,data,0.02,5
"quoted, task",tools,,1,1,completed,0,data,0,1
`;
const SUMMARY_CSV = "model,agent,n,pass_095,mean_reward\nopenai:gpt,tools,10,0.3,0.5\n";
const JSON_ROWS = `[
  {"task": "sum", "agent": "tools", "model": "openai:gpt", "reward": 0.5, "subtasks": [{"id": "a", "score": 1}]},
  {"task": "sum", "outcome": "infra_error"}
]`;
const JSONL = '{"task": "a", "reward": 1}\n{"task": "b", "reward": 0}\n';

const importedCsv: FuzzTarget = {
  name: "import CSV",
  seeds: [CSV, SUMMARY_CSV],
  check: parses("results.csv", true, (t) => parseExternalResults(t, "results.csv")),
};

const importedJson: FuzzTarget = {
  name: "import JSON",
  seeds: [JSON_ROWS, JSONL],
  check: (t) => {
    const file = t.trimStart().startsWith("[") ? "results.json" : "results.jsonl";
    return parses(file, true, (x) => parseExternalResults(x, file))(t);
  },
};

const JOB_CONFIG = `${JSON.stringify(
  {
    schema_version: 1,
    job_id: "j1",
    created_at: "2026-01-01T00:00:00.000Z",
    tasks: [{ name: "sum", path: "/tasks/sum", checksum: "ab" }],
    agents: ["oracle"],
    models: [null],
    attempts: 1,
    concurrency: 2,
    timeout_multiplier: 1,
    retries: 2,
    seed: 7,
    sandbox: "bwrap",
    agent_options: { cmd: "true" },
  },
  null,
  2,
)}\n`;

const jobConfig: FuzzTarget = {
  name: "job config.json",
  seeds: [JOB_CONFIG],
  check: parses("jobs/j1/config.json", true, (t) => parseJobConfig("jobs/j1/config.json", t)),
};

export const FILE_TARGETS: readonly FuzzTarget[] = [
  taskToml,
  rubricToml,
  rewardFiles,
  importedCsv,
  importedJson,
  jobConfig,
];

/** Inputs for a target: mutations of its seeds, plus structured documents for the TOML formats. */
export function inputsFor(t: FuzzTarget): fc.Arbitrary<string> {
  const edits = mutated(
    t.seeds,
    TOML_PIECES.concat(['"', ",", "\n", "%", "null", "}", "]", "1e999", "-0", '\\"']),
  );
  if (t.name === "task.toml") {
    return fc.oneof(
      edits,
      tomlDocs([
        { header: "", keys: ["version"] },
        { header: "[task]", keys: ["name", "description"] },
        {
          header: "[metadata]",
          keys: ["category", "difficulty", "expert_time_estimate_min", "tags", "author_name"],
        },
        { header: "[agent]", keys: ["timeout_sec"] },
        { header: "[verifier]", keys: ["timeout_sec"] },
        {
          header: "[environment]",
          keys: [
            "cpus",
            "memory_mb",
            "storage_mb",
            "allow_internet",
            "workdir",
            "docker_image",
            "build_timeout_sec",
          ],
        },
        { header: "[requires]", keys: ["host_tools"] },
      ]),
    );
  }
  if (t.name === "rubric.toml") {
    return fc.oneof(
      edits,
      tomlDocs([{ header: "[[subtask]]", keys: ["id", "weight", "kind", "visibility", "description"] }]),
    );
  }
  if (t.name === "reward files") {
    const value = fc.oneof(
      fc.double(),
      fc.constantFrom("1", "0x1", "1e999", "NaN", "-0", '"0.5"', "null", "true", "[]", "{}"),
    );
    const json = fc
      .array(
        fc.tuple(
          fc.constantFrom("public_sum", "hidden_stress", "reward", "extra", "__proto__", "constructor"),
          value,
        ),
        { maxLength: 5 },
      )
      .map(
        (kv) =>
          `{${kv.map(([k, v]) => `${JSON.stringify(k)}: ${typeof v === "number" ? String(v) : v}`).join(", ")}}`,
      );
    return fc.oneof(
      edits,
      fc
        .tuple(
          fc.oneof(json, fc.constant("")),
          fc.oneof(fc.constant(""), value.map(String), fc.string()),
          fc.string({ maxLength: 40 }),
        )
        .map((p) => p.join("\u0000")),
    );
  }
  return edits;
}
