import { writeFileSync } from "node:fs";

/**
 * An asciinema v2 recording: a JSON header line, then one `[seconds, "o"|"i", text]` line per event.
 * Kept in memory and written at the end (and on failure) so a turn never waits on the disk.
 */
export class CastRecorder {
  private readonly lines: string[] = [];
  private readonly t0 = performance.now();

  constructor(width: number, height: number, title?: string) {
    const header = {
      version: 2,
      width,
      height,
      timestamp: Math.floor(Date.now() / 1000),
      ...(title ? { title } : {}),
    };
    this.lines.push(JSON.stringify(header));
  }

  private event(kind: "o" | "i", text: string): void {
    if (text.length === 0) return;
    const t = Math.round(performance.now() - this.t0) / 1000;
    // Terminals need CR LF; a bare LF would stair-step the replay.
    this.lines.push(JSON.stringify([t, kind, text.replace(/\r?\n/g, "\r\n")]));
  }

  output(text: string): void {
    this.event("o", text);
  }

  input(text: string): void {
    this.event("i", text);
  }

  get eventCount(): number {
    return this.lines.length - 1;
  }

  write(path: string): void {
    writeFileSync(path, `${this.lines.join("\n")}\n`);
  }
}
