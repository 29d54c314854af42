/**
 * The longest delay setTimeout honours (2^31 − 1 ms, about 24.8 days): a longer one fires at
 * once. A time limit in seconds — a task's timeout times `--timeout-multiplier` — goes through
 * timerMs, so a huge limit means "as long as a timer can wait", never "now".
 */
export const MAX_TIMER_MS = 2_147_483_647;

export function timerMs(seconds: number): number {
  return Math.min(Math.max(0, seconds * 1000), MAX_TIMER_MS);
}
