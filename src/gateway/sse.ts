/**
 * Reads `data:` payloads out of an SSE byte stream as it passes through, without changing it.
 * Lines may be split across chunks; events whose data is not JSON (`[DONE]`) are skipped.
 */
export class SseTap {
  private rest = "";
  private readonly decoder = new TextDecoder();
  private data: string[] = [];

  constructor(private readonly onData: (data: unknown) => void) {}

  push(chunk: Uint8Array): void {
    this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    this.feed(`${this.decoder.decode()}\n\n`);
  }

  private feed(text: string): void {
    const lines = (this.rest + text).split(/\r?\n/);
    this.rest = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "") {
        this.dispatch();
      } else if (line.startsWith("data:")) {
        this.data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
      }
    }
  }

  private dispatch(): void {
    if (this.data.length === 0) return;
    const payload = this.data.join("\n");
    this.data = [];
    if (payload === "[DONE]") return;
    try {
      this.onData(JSON.parse(payload));
    } catch {
      // Not JSON: passed through to the client all the same, just not read here.
    }
  }
}
