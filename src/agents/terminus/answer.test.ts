import { describe, expect, it } from "vitest";
import { parseTerminusAnswer } from "./answer.js";
import { quoteTmuxArg } from "./tmux-control.js";

describe("terminus answer parsing", () => {
  it("accepts a bare object and fills defaults", () => {
    const r = parseTerminusAnswer('{"commands": [{"keystrokes": "ls\\n"}]}');
    expect(r).toEqual({
      ok: true,
      answer: {
        analysis: "",
        plan: "",
        commands: [{ keystrokes: "ls\n", duration: 1 }],
        task_complete: false,
      },
    });
  });

  it("finds the object inside prose and code fences, braces in strings included", () => {
    const text =
      'Sure.\n```json\n{"analysis": "a } b {", "plan": "p", "commands": [], "task_complete": true}\n```\nDone.';
    const r = parseTerminusAnswer(text);
    expect(r.ok && r.answer.analysis).toBe("a } b {");
    expect(r.ok && r.answer.task_complete).toBe(true);
  });

  it("explains what is wrong with a bad answer", () => {
    expect(parseTerminusAnswer("  ")).toEqual({ ok: false, error: "the answer was empty" });
    expect(parseTerminusAnswer("no json here")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no JSON object/),
    });
    expect(parseTerminusAnswer('{"commands": [}')).toMatchObject({ ok: false });
    expect(parseTerminusAnswer('{"commands": "ls"}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/field commands/),
    });
    expect(parseTerminusAnswer('{"commands": [{"keystrokes": "x", "duration": -1}]}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/commands\.0\.duration/),
    });
    expect(parseTerminusAnswer('{"task_complete": "yes"}')).toMatchObject({ ok: false });
  });
});

describe("tmux control-mode quoting", () => {
  it("passes plain words through and single-quotes the rest", () => {
    expect(quoteTmuxArg("send-keys")).toBe("send-keys");
    expect(quoteTmuxArg("#{history_size} #{cursor_y}")).toBe("'#{history_size} #{cursor_y}'");
    expect(quoteTmuxArg("-S")).toBe("-S");
    expect(() => quoteTmuxArg("it's")).toThrow();
  });
});
