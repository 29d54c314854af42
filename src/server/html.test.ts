import { describe, expect, it } from "vitest";
import { clip, clipStart, esc, fmtSec } from "./html.js";

describe("page helpers", () => {
  it("escapes the five HTML-significant characters", () => {
    expect(esc(`<a href="x" onclick='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
    expect(esc(null)).toBe("");
    expect(esc(0)).toBe("0");
  });

  it("formats durations without rounding into an impossible 60", () => {
    expect(fmtSec(12.34)).toBe("12.3 s");
    expect(fmtSec(59.97)).toBe("1 m 0 s");
    expect(fmtSec(119.6)).toBe("2 m 0 s");
    expect(fmtSec(3599.7)).toBe("1 h 0 m");
    expect(fmtSec(7170)).toBe("2 h 0 m");
  });

  it("cuts long text and says how much is missing", () => {
    expect(clip("abcdef", 10)).toBe("abcdef");
    expect(clip("abcdef", 2)).toBe("ab\n… (4 more characters not shown)");
    expect(clipStart("abcdef", 2)).toBe("… (4 earlier characters not shown)\nef");
    expect(clipStart("abc", 3)).toBe("abc");
  });
});
