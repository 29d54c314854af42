import type { TrialResult } from "../core/index.js";

/** Progress of a job, written to stderr: a live status line on a TTY, plain lines otherwise. */
export interface ProgressSink {
  start(total: number, alreadyDone: number): void;
  trialStarted(trialId: string): void;
  trialFinished(result: TrialResult): void;
  trialRetry(trialId: string, attempt: number, reason: string): void;
  /** A line about the job itself (an image built or reused). */
  note?(line: string): void;
  stop(): void;
}

/** A progress sink writing to `stream` (stderr by default): a live status line on a TTY, plain lines otherwise. */
export function createProgress(stream: NodeJS.WriteStream = process.stderr): ProgressSink {
  const live = stream.isTTY === true && process.env.CI !== "true" && process.env.CI !== "1";
  return new Progress(stream, live);
}

/** A progress sink that reports nothing (the default of runJob). */
export const silentProgress: ProgressSink = {
  start: () => undefined,
  trialStarted: () => undefined,
  trialFinished: () => undefined,
  trialRetry: () => undefined,
  stop: () => undefined,
};

class Progress implements ProgressSink {
  private total = 0;
  private done = 0;
  private doneThisRun = 0;
  private failed = 0;
  private readonly running = new Set<string>();
  private startedAt = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly live: boolean,
  ) {}

  start(total: number, alreadyDone: number): void {
    this.total = total;
    this.done = alreadyDone;
    this.startedAt = Date.now();
    const resumed = alreadyDone > 0 ? ` (${alreadyDone} already done)` : "";
    this.line(`job: ${total} trials${resumed}`);
    if (this.live) this.timer = setInterval(() => this.render(), 250);
  }

  trialStarted(trialId: string): void {
    this.running.add(trialId);
    if (!this.live) this.line(`start  ${trialId}`);
  }

  trialFinished(r: TrialResult): void {
    this.running.delete(r.trial_id);
    this.done += 1;
    this.doneThisRun += 1;
    if (r.outcome !== "completed") this.failed += 1;
    const reward = r.reward === null ? "  -  " : r.reward.toFixed(3);
    const why =
      r.outcome === "grading_error" ? `  (${oneLine(r.error?.message ?? r.grading_errors[0] ?? "")})` : "";
    this.line(
      `done   ${r.trial_id}  R=${reward}  ${r.outcome}  ${r.timing.total_sec.toFixed(1)}s  [${this.done}/${this.total}]${why}`,
    );
  }

  trialRetry(trialId: string, attempt: number, reason: string): void {
    this.line(`retry  ${trialId} (infrastructure, try ${attempt}): ${reason}`);
  }

  note(line: string): void {
    this.line(line);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.live) this.stream.write("\r\x1b[2K");
  }

  private line(text: string): void {
    if (this.live) this.stream.write("\r\x1b[2K");
    this.stream.write(`${text}\n`);
    if (this.live) this.render();
  }

  private render(): void {
    const elapsed = (Date.now() - this.startedAt) / 1000;
    const remaining = this.total - this.done;
    const rate = this.doneThisRun > 0 ? elapsed / this.doneThisRun : 0;
    const eta = rate > 0 ? fmt(rate * remaining) : "--:--";
    this.stream.write(
      `\r\x1b[2K${this.done}/${this.total} done · ${this.running.size} running · ${this.failed} failed · ${fmt(elapsed)} elapsed · ETA ${eta}`,
    );
  }
}

function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must not reach the terminal
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").slice(0, 300);
}

function fmt(sec: number): string {
  const s = Math.round(sec);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
