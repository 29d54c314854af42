/**
 * The `follow` agent met a sentence of the instruction it does not understand. It never skips
 * one: a step it cannot read could be the one the task depends on.
 */
export class FollowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FollowError";
  }
}

/** A sentence quoted in an error, cut to a readable length. */
export function quote(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return JSON.stringify(one.length > 240 ? `${one.slice(0, 237)}...` : one);
}

/** The first line where `got` differs from what the code renders (`want`), quoted. */
export function firstDifference(got: string, want: string): string {
  const g = got.trimEnd().split("\n");
  const w = want.trimEnd().split("\n");
  for (let i = 0; i < Math.max(g.length, w.length); i++) {
    if (g[i] !== w[i]) return quote(g[i] ?? "(end of section)");
  }
  return quote(g[0] ?? "");
}
