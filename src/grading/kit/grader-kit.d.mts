// Types for grader-kit.mjs, for TypeScript graders and for longhaul's own tests.

export type Decay = "linear" | "exponential" | "relative";

export interface ContinuousInput {
  error: number;
  tolerance: number;
  cutoff: number;
  decay?: Decay;
  /** Steepness of the exponential decay (default 5). */
  rate?: number;
}

export interface KitRng {
  nextU32(): number;
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
  fork(label: string): KitRng;
}

export interface ExecResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface CheckContext {
  id: string;
  seed: number;
  rng: KitRng;
  signal: AbortSignal;
  exec(
    cmd: string,
    args?: readonly string[],
    opts?: { cwd?: string; env?: Record<string, string>; input?: string; timeoutMs?: number },
  ): Promise<ExecResult>;
  /**
   * Run the candidate's program sealed (docs/grader-kit.md, "Sealed runs"): no /tests, no seed,
   * no reward files, workdir read-only, fresh /tmp. Existing absolute paths in args are shown
   * read-only, missing ones whose folder exists are outputs it may create.
   */
  run(cmd: string, args?: readonly string[], opts?: SealedRunOptions): Promise<ExecResult>;
  log(line: string): void;
  /** Feeds a generated hidden input into the trial's stress_digest (reward-details.json). */
  recordStress(name: string, data: string | Uint8Array | unknown): void;
}

export interface SealedRunOptions {
  cwd?: string;
  input?: string;
  timeoutMs?: number;
  /** Extra paths shown read-only at the same place. */
  readOnly?: readonly string[];
  /** Extra paths the program may create (moved into place after the call). */
  outputs?: readonly string[];
}

export const SEALED_RUN: string;
export const SEALED_FAILED: number;
export function sealedArgv(
  cmd: string,
  args?: readonly string[],
  opts?: Omit<SealedRunOptions, "input">,
): string[];

export interface CheckOptions {
  timeoutMs?: number;
  /** Used only when there is no rubric file. */
  weight?: number;
}

export type BinaryResult = boolean | { pass: boolean; message?: string };
export type ContinuousResult = (ContinuousInput & { message?: string }) | { score: number; message?: string };
export type EpisodeRecord = { score: number } & Record<string, unknown>;

export interface GraderOptions {
  outDir?: string;
  seed?: number;
  timeoutMs?: number;
  /** Path of rubric.toml (default /tests/rubric.toml when it exists); false to skip. */
  rubric?: string | false;
  log?: (line: string) => void;
  exitOnTimeout?: boolean;
  /**
   * After the first weighted subtask below 1, run no more checks (they score 0). Default: true
   * when $LONGHAUL_STOP_AT_FIRST_FAILURE is "1", which only RES verification's bare-oracle trial sets.
   */
  stopAtFirstFailure?: boolean;
}

export interface SubtaskSummary {
  score: number;
  message: string | null;
  error: string | null;
}

export interface Grader {
  readonly seed: number;
  /** Feeds a generated hidden input into stress_digest, for inputs made outside a check. */
  recordStress(name: string, data: string | Uint8Array | unknown): void;
  binary(
    id: string,
    fn: (ctx: CheckContext) => BinaryResult | Promise<BinaryResult>,
    opts?: CheckOptions,
  ): Grader;
  continuous(
    id: string,
    fn: (ctx: CheckContext) => ContinuousResult | Promise<ContinuousResult>,
    opts?: CheckOptions,
  ): Grader;
  episode(
    id: string,
    fn: (ctx: CheckContext) => EpisodeRecord[] | Promise<EpisodeRecord[]>,
    opts?: CheckOptions,
  ): Grader;
  run(): Promise<{ reward: number; subtasks: Record<string, SubtaskSummary> }>;
}

export function createGrader(options?: GraderOptions): Grader;
export function scoreContinuous(input: ContinuousInput): number;
export function clamp01(x: number): number;
export function mean(values: readonly number[]): number;
export function weightedMean(items: readonly { value: number; weight: number }[]): number;
export function relativeError(got: number, expected: number): number;
export function createRng(seed: number | string): KitRng;
export function hashString(s: string): number;
export function parseRubricWeights(text: string): Map<string, number>;
