import { describe, expect, it } from "vitest";
import { InfraError } from "../../core/index.js";
import { viaControl } from "./tmux.js";

/** A control client that answers `answers` commands, then stops answering and closes. */
function control(answers: number) {
  const state = { open: true, sent: [] as string[][] };
  return {
    state,
    get open() {
      return state.open;
    },
    run(args: string[]): Promise<string> {
      state.sent.push(args);
      if (state.sent.length <= answers) return Promise.resolve(`control:${args[0]}`);
      state.open = false;
      return Promise.reject(new InfraError(`tmux ${args[0]}: no answer`));
    },
  };
}

function recorder(into: string[][], answer: (args: string[]) => string) {
  return async (args: string[]): Promise<string> => {
    into.push(args);
    return answer(args);
  };
}

describe("tmux commands fall back from the control client to one client per command", () => {
  it("uses the control client while it answers", async () => {
    const c = control(5);
    const spawned: string[][] = [];
    const tmux = viaControl(
      c,
      recorder(spawned, () => "spawned"),
    );
    expect(await tmux(["capture-pane", "-p"])).toBe("control:capture-pane");
    expect(spawned).toEqual([]);
  });

  it("sends a read again through a new client once the control client failed, and later ones too", async () => {
    const c = control(1);
    const spawned: string[][] = [];
    const tmux = viaControl(
      c,
      recorder(spawned, (a) => `spawned:${a[0]}`),
    );
    expect(await tmux(["display-message", "-p"])).toBe("control:display-message");
    expect(await tmux(["capture-pane", "-p"])).toBe("spawned:capture-pane");
    expect(await tmux(["send-keys", "-t", "main", "x"])).toBe("spawned:send-keys");
    expect(c.state.sent).toHaveLength(2);
    expect(spawned.map((a) => a[0])).toEqual(["capture-pane", "send-keys"]);
  });

  it("does not type keystrokes twice: a send that failed on the control client is an error", async () => {
    const c = control(0);
    const spawned: string[][] = [];
    const tmux = viaControl(
      c,
      recorder(spawned, () => "spawned"),
    );
    await expect(tmux(["send-keys", "-t", "main", "-H", "41"])).rejects.toThrow(InfraError);
    expect(spawned).toEqual([]);
    expect(await tmux(["send-keys", "-t", "main", "-H", "42"])).toBe("spawned");
  });
});
