/**
 * Keeps the head and the tail of a long text under a byte cap: the start shows what a command
 * began doing, the end shows where it finished, and the middle is the part worth dropping.
 */
export function capHeadTail(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= maxBytes) return text;
  const half = Math.max(0, Math.floor(maxBytes / 2));
  // Cut on character boundaries (never inside a UTF-8 sequence), so the text's own characters,
  // U+FFFD included, are kept as they were and none is made up.
  let headEnd = half;
  while (headEnd > 0 && isContinuation(buf[headEnd])) headEnd--;
  let tailStart = buf.length - half;
  while (tailStart < buf.length && isContinuation(buf[tailStart])) tailStart++;
  const head = buf.subarray(0, headEnd).toString("utf8");
  const tail = buf.subarray(tailStart).toString("utf8");
  const omitted = buf.length - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return `${head}\n[... ${omitted} bytes omitted ...]\n${tail}`;
}

/** A rough token count (≈4 bytes a token) for deciding when to summarise before the model says so. */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, "utf8") / 4);
}

/** A UTF-8 continuation byte (10xxxxxx): not the start of a character. */
function isContinuation(b: number | undefined): boolean {
  return b !== undefined && (b & 0xc0) === 0x80;
}
