import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TmuxSession } from "../../src/agents/terminus/tmux.js";
import { HostFakeSandbox } from "./fake-sandbox.js";

let sb: HostFakeSandbox;
let tmux: TmuxSession;

beforeAll(async () => {
  sb = new HostFakeSandbox();
  tmux = await TmuxSession.start(sb, {
    width: 100,
    height: 20,
    socket: "/logs/tmux.sock",
    cwd: sb.spec.workdir,
  });
  await tmux.newOutput();
});
afterAll(async () => {
  await tmux.kill();
  await sb.close();
});

async function settle(pred: (s: string) => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (Date.now() < end && !pred(await tmux.screen())) await new Promise((r) => setTimeout(r, 25));
}

describe("tmux session", () => {
  it("returns output that scrolled past the screen, once", async () => {
    await tmux.send("seq 1001 1150\n");
    await settle((s) => /^1150$/m.test(s));
    const out = await tmux.newOutput();
    const lines = out.split("\n");
    expect(lines).toContain("1001");
    expect(lines).toContain("1150");
    expect(lines.filter((l) => /^1\d{3}$/.test(l))).toHaveLength(150);
    await tmux.send("echo next-$((1+1))\n");
    await settle((s) => /^next-2$/m.test(s));
    const again = await tmux.newOutput();
    expect(again).toContain("next-2");
    expect(again).not.toContain("1001");
  });

  it("keeps working across clear", async () => {
    await tmux.send("clear\n");
    await tmux.send("echo after-clear\n");
    await settle((s) => /^after-clear$/m.test(s));
    expect(await tmux.newOutput()).toContain("after-clear");
  });

  it("presses key names such as C-c", async () => {
    await tmux.send("sleep 100\n");
    const end = Date.now() + 3000;
    while (Date.now() < end && (await tmux.currentCommand()) === tmux.shell)
      await new Promise((r) => setTimeout(r, 25));
    expect(await tmux.currentCommand()).toBe("sleep");
    await tmux.send("C-c");
    const end2 = Date.now() + 3000;
    while (Date.now() < end2 && (await tmux.currentCommand()) !== tmux.shell)
      await new Promise((r) => setTimeout(r, 25));
    expect(await tmux.currentCommand()).toBe(tmux.shell);
  });
});
