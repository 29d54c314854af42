/**
 * Three kinds of failure, kept apart because they mean different things to a user:
 * - UserError: bad input or usage. One clear line, exit code 2, never retried.
 * - InfraError: the machinery failed (sandbox would not start, disk full, provider down).
 *   Retryable, and never scored as the agent's failure.
 * - InternalError: a bug in longhaul. Printed with its stack and a request to report it.
 */
export type ErrorKind = "user" | "infra" | "internal";

export class LonghaulError extends Error {
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = new.target.name;
  }
}

/** A mistake the user can fix (bad option, broken task file): the CLI prints its one-line message and exits 2. */
export class UserError extends LonghaulError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("user", message, options);
  }
}

/** A failure of the machinery (sandbox, image build, network), not of the agent: retried, then recorded as infra_error. */
export class InfraError extends LonghaulError {
  readonly retryable: boolean;
  constructor(message: string, options?: { cause?: unknown; retryable?: boolean }) {
    super("infra", message, options);
    this.retryable = options?.retryable ?? true;
  }
}

export class InternalError extends LonghaulError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("internal", message, options);
  }
}

/** An error about one place in one file: `path:line: message`. */
export class InputError extends UserError {
  readonly file: string;
  readonly line: number | undefined;
  readonly field: string | undefined;
  constructor(file: string, line: number | undefined, field: string | undefined, detail: string) {
    super(`${file}${line === undefined ? "" : `:${line}`}: ${detail}`);
    this.file = file;
    this.line = line;
    this.field = field;
  }
}

export function isLonghaulError(e: unknown): e is LonghaulError {
  return e instanceof LonghaulError;
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
