import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { PLAYER_JS, TERMINAL_JS } from "./player-js.js";

interface Term {
  lines: string[];
}
interface TerminalApi {
  termNew(width: number, height: number, maxLines?: number): Term;
  termWrite(t: Term, text: string): void;
  termText(t: Term): string;
}

function terminal(): TerminalApi {
  return runInNewContext(`${TERMINAL_JS}\n({ termNew, termWrite, termText })`) as TerminalApi;
}

function screen(chunks: string[], width = 80, height = 24, maxLines?: number): string {
  const api = terminal();
  const t = api.termNew(width, height, maxLines);
  for (const c of chunks) api.termWrite(t, c);
  return api.termText(t);
}

describe("recording player terminal model", () => {
  it("handles CR LF, a bare CR overwriting the line, backspace and tabs", () => {
    expect(screen(["one\r\ntwo\r\n"])).toBe("one\ntwo\n");
    expect(screen(["progress 10%\rprogress 99%\r\n"])).toBe("progress 99%\n");
    expect(screen(["abx\bc"])).toBe("abc");
    expect(screen(["a\tb"])).toBe(`a${" ".repeat(7)}b`);
  });

  it("drops colour and other escape sequences, even split across events", () => {
    expect(screen(["\u001b[1;32mgreen\u001b[0m plain"])).toBe("green plain");
    expect(screen(["\u001b]0;window title\u0007after"])).toBe("after");
    expect(screen(["be\u001b[3", "1mfore"])).toBe("before");
  });

  it("clears the screen and moves the cursor", () => {
    expect(screen(["old text\r\nmore\u001b[2J\u001b[Hnew"])).toBe("new");
    expect(screen(["hello world\r\u001b[6C\u001b[Kthere"])).toBe("hello there");
    expect(screen(["line1\r\nline2\u001b[1A\rLINE"])).toBe("LINE1\nline2");
  });

  it("wraps at the recorded width and keeps a bounded scrollback", () => {
    expect(screen(["abcdefgh"], 4)).toBe("abcd\nefgh");
    const out = screen([Array.from({ length: 50 }, (_, i) => `l${i}`).join("\r\n")], 80, 24, 10);
    expect(out.split("\n")).toEqual(Array.from({ length: 10 }, (_, i) => `l${40 + i}`));
  });

  it("keeps the cursor on the screen whatever a move asks for, without growing the buffer", () => {
    const api = terminal();
    const t = api.termNew(80, 24);
    const started = Date.now();
    api.termWrite(t, "top\u001b[999999999;1Hx\u001b[999999999By\u001b[1;999999999Hz\u001b[999999999Gw");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(t.lines.length).toBe(24);
    const rows = api.termText(t).split("\n");
    expect(rows[0]).toBe(`top${" ".repeat(76)}w`);
    expect(rows[23]).toBe("xy");
    // A header claiming a billion rows is held to a screen a real terminal could have.
    const huge = api.termNew(1_000_000_000, 1_000_000_000);
    api.termWrite(huge, "\u001b[999999999;999999999Hq");
    expect(huge.lines.length).toBeLessThanOrEqual(1000);
  });

  it("reads a position or count of 0 as 1, as terminals do", () => {
    expect(screen(["old\u001b[0;0Hnew"])).toBe("new");
    expect(screen(["abc\r\ndef\u001b[0A\u001b[0G\u001b[0CX"])).toBe("aXc\ndef");
    expect(screen(["\u001b[0;0f\u001b[0B.", "\u001b[0d"])).toBe("\n.");
  });

  it("is plain script text that parses without a module system", () => {
    expect(() => new Function(`${TERMINAL_JS}\n${PLAYER_JS}`)).not.toThrow();
  });
});
