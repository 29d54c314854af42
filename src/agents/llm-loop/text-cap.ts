/**
 * Keeps the head and the tail of a long text under a byte cap: the start shows what a command
 * began doing, the end shows where it finished, and the middle is the part worth dropping.
 */
export function capHeadTail(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= maxBytes) return text;
  const half = Math.max(0, Math.floor(maxBytes / 2));
  const head = buf
    .subarray(0, half)
    .toString("utf8")
    .replace(/\uFFFD+$/, "");
  const tail = buf
    .subarray(buf.length - half)
    .toString("utf8")
    .replace(/^\uFFFD+/, "");
  const omitted = buf.length - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return `${head}\n[... ${omitted} bytes omitted ...]\n${tail}`;
}

/** A rough token count (≈4 bytes a token) for deciding when to summarise before the model says so. */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, "utf8") / 4);
}
