/** One Dockerfile instruction, continuation lines joined. */
export interface DockerfileInstruction {
  /** 0-based index of the first and last physical line. */
  first: number;
  last: number;
  /** Upper case (`COPY`, `RUN`, …). */
  keyword: string;
  /** Everything after the keyword, continuations joined with spaces. */
  args: string;
}

/**
 * The instructions of a Dockerfile's lines, in order: continuation lines (`\`) joined, comment
 * lines skipped (inside a continuation too, as docker does) and blank lines ignored.
 */
export function dockerfileInstructions(lines: readonly string[]): DockerfileInstruction[] {
  const out: DockerfileInstruction[] = [];
  let i = 0;
  while (i < lines.length) {
    const first = i;
    let joined = "";
    for (;;) {
      const line = (lines[i] ?? "").replace(/\r$/, "");
      i += 1;
      if (/^\s*#/.test(line)) {
        if (joined === "" || i >= lines.length) break;
        continue;
      }
      if (line.endsWith("\\")) {
        joined += `${line.slice(0, -1)} `;
        if (i < lines.length) continue;
      } else joined += line;
      break;
    }
    const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(joined);
    if (m !== null) out.push({ first, last: i - 1, keyword: (m[1] ?? "").toUpperCase(), args: m[2] ?? "" });
  }
  return out;
}
