import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { InfraError, UserError } from "../../core/index.js";
import type { Sandbox } from "../../sandbox/types.js";
import { type ReachableSocket, reachableSocket } from "./socket-path.js";
import { TmuxControl } from "./tmux-control.js";

const execFileP = promisify(execFile);

/** Runs one tmux client command against the session's server and returns its stdout. */
type TmuxClient = (args: string[]) => Promise<string>;

export interface TmuxOptions {
  width: number;
  height: number;
  /** Sandbox path of the server socket. */
  socket: string;
  /** Sandbox path the shell starts in. */
  cwd: string;
}

const SESSION = "main";
/** Bytes typed by one send-keys command (a client's command is refused past ~10000 keys). */
const SEND_SLICE_BYTES = 1024;
/**
 * How long the in-sandbox tmux server may take to listen. Usually ~50 ms; a machine busy with
 * other sandboxes has taken over 5 s, and giving up then is an infrastructure error, not the agent's.
 */
const SERVER_START_MS = 60_000;
/** One host tmux client call; a client stuck on a socket must not outlive the start deadline. */
const CLIENT_MS = 10_000;
/** Names tmux understands as single keys; anything else is typed literally. */
const KEY_NAME =
  /^(?:[CM]-.|C-M-.|Enter|Escape|Tab|BTab|BSpace|Space|Up|Down|Left|Right|Home|End|PageUp|PageDown|PPage|NPage|DC|IC|F\d{1,2})$/;

/**
 * A tmux server running inside the sandbox, driven from the host through its socket when the
 * provider exposes it (bwrap), else through `sandbox.exec` of the tmux client.
 */
export class TmuxSession {
  private mark = 0;
  /** The pane's idle foreground command (the shell), learnt at start. */
  shell = "";

  private constructor(
    private readonly tmux: TmuxClient,
    readonly width: number,
    readonly height: number,
    private readonly control: TmuxControl | null,
    private readonly link: ReachableSocket | null,
  ) {}

  static async start(sandbox: Sandbox, opts: TmuxOptions, signal?: AbortSignal): Promise<TmuxSession> {
    if (!sandbox.spawnBackground) {
      throw new UserError(
        "this sandbox provider cannot keep a terminal open (no spawnBackground); use the tools agent",
      );
    }
    await sandbox.spawnBackground(["tmux", "-S", opts.socket, "-D", "-f", "/dev/null"]);
    const hostPath = sandbox.hostPathOf?.(opts.socket) ?? null;
    const link = hostPath === null ? null : reachableSocket(hostPath);
    try {
      return await TmuxSession.open(sandbox, opts, link, signal);
    } catch (e) {
      link?.release();
      throw e;
    }
  }

  private static async open(
    sandbox: Sandbox,
    opts: TmuxOptions,
    link: ReachableSocket | null,
    signal?: AbortSignal,
  ): Promise<TmuxSession> {
    const hostSock = link?.path ?? null;
    const tmux: TmuxClient =
      hostSock !== null
        ? async (args) =>
            (
              await execFileP("tmux", ["-S", hostSock, ...args], {
                maxBuffer: 64 << 20,
                timeout: CLIENT_MS,
                killSignal: "SIGKILL",
              })
            ).stdout
        : async (args) => {
            const r = await sandbox.exec(["tmux", "-S", opts.socket, ...args], { timeoutSec: 30 });
            if (r.exitCode !== 0) throw new Error(`tmux ${args[0]}: ${r.stderr.trim()}`);
            return r.stdout;
          };
    // The last reason the server did not answer, so a start that gives up says why.
    let why = "no socket yet";
    await waitFor(
      async () => {
        if (hostSock !== null && !existsSync(hostSock)) return false;
        why = await failure(tmux, ["show-options", "-g", "status"]);
        return why === "";
      },
      SERVER_START_MS,
      signal,
      () => `${hostSock === null ? "" : `socket ${hostSock}: `}${why}`,
    );
    await tmux(["set-option", "-g", "history-limit", "100000"]);
    await tmux(["set-option", "-g", "status", "off"]);
    const size = ["-x", String(opts.width), "-y", String(opts.height)];
    await tmux(["new-session", "-d", "-s", SESSION, ...size, "-c", opts.cwd]);
    // A fixed size, so attached clients (ours included) never resize the window. Set only once the
    // session exists: tmux 3.3a's server dies if window-size is manual when the first session is made.
    await tmux(["set-option", "-g", "window-size", "manual"]);
    const control = hostSock === null ? null : await TmuxControl.attach(hostSock, SESSION).catch(() => null);
    const session = new TmuxSession(
      control ? viaControl(control, tmux) : tmux,
      opts.width,
      opts.height,
      control,
      link,
    );
    // The first prompt shows once the shell has read its startup files.
    await waitFor(async () => (await session.screen()).length > 0, 5000, signal).catch(() => undefined);
    session.shell = await session.currentCommand();
    return session;
  }

  /** Types keystrokes: a lone key name (C-c, Enter…) is pressed; other text is typed, `\n` as Enter. */
  async send(keys: string): Promise<void> {
    if (KEY_NAME.test(keys)) {
      await this.tmux(["send-keys", "-t", SESSION, keys]);
      return;
    }
    if (keys.length === 0) return;
    // Hex key codes pass any byte without quoting rules in the way; "\n" becomes CR (Enter), so
    // a whole command line is one tmux round trip.
    const bytes = [...Buffer.from(keys.replace(/\r?\n/g, "\r"), "utf8")].map((b) =>
      b.toString(16).padStart(2, "0"),
    );
    // tmux's command parser fails on a very long command ("yacc stack overflow" past some
    // thousands of arguments), and models do type whole files (a heredoc): long input goes in
    // slices, in order, so the terminal receives the same bytes.
    for (let i = 0; i < bytes.length; i += SEND_SLICE_BYTES)
      await this.tmux(["send-keys", "-t", SESSION, "-H", ...bytes.slice(i, i + SEND_SLICE_BYTES)]);
  }

  /** The visible screen. */
  async screen(): Promise<string> {
    return trimEnd(await this.tmux(["capture-pane", "-p", "-J", "-t", SESSION]));
  }

  /** The foreground command and the cursor's row counted from the top of the scrollback. */
  async state(): Promise<{ command: string; row: number }> {
    const out = await this.tmux([
      "display-message",
      "-p",
      "-t",
      SESSION,
      "#{history_size} #{cursor_y} #{pane_current_command}",
    ]);
    const [hs, cy, ...cmd] = out.trim().split(" ");
    return { command: cmd.join(" "), row: Number(hs ?? 0) + Number(cy ?? 0) };
  }

  /** The foreground command of the pane; equal to `shell` when the prompt is back. */
  async currentCommand(): Promise<string> {
    return (await this.tmux(["display-message", "-p", "-t", SESSION, "#{pane_current_command}"])).trim();
  }

  /**
   * Output since the last call: from the line the cursor was on last time to the end of the
   * screen. Positions count from the top of the history, so scrolling does not lose text.
   */
  async newOutput(): Promise<string> {
    const [hs, cy] = (
      await this.tmux(["display-message", "-p", "-t", SESSION, "#{history_size} #{cursor_y}"])
    )
      .trim()
      .split(" ")
      .map(Number);
    const history = hs ?? 0;
    const start = this.mark - history;
    const cursor = cy ?? 0;
    // Older than the kept scrollback: take all of it. Past the cursor (the history was cleared):
    // positions went backwards, so show the whole screen.
    const from = start < -history ? "-" : start > cursor ? "0" : String(start);
    const text = await this.tmux(["capture-pane", "-p", "-J", "-t", SESSION, "-S", from]);
    this.mark = history + cursor;
    return trimEnd(text);
  }

  async kill(): Promise<void> {
    await this.tmux(["kill-server"]).catch(() => undefined);
    this.control?.close();
    this.link?.release();
  }
}

/** Commands that only read state: safe to send again through another client. */
const READ_ONLY = new Set(["capture-pane", "display-message", "show-options"]);

/**
 * Commands go through the control client while it works. Once it fails (it has been seen to stop
 * answering on a loaded machine), every later command spawns its own client instead; the failed
 * command itself is sent again only when it just reads, since keystrokes may have been typed.
 */
export function viaControl(
  control: Pick<TmuxControl, "open" | "run">,
  spawnClient: (args: string[]) => Promise<string>,
): (args: string[]) => Promise<string> {
  return async (args) => {
    if (!control.open) return spawnClient(args);
    try {
      return await control.run(args);
    } catch (e) {
      if (control.open || !READ_ONLY.has(args[0] ?? "")) throw e;
      return spawnClient(args);
    }
  };
}

function trimEnd(s: string): string {
  return s.replace(/\s+$/, "");
}

/** "" when the command succeeds, else its error's first line. */
async function failure(tmux: TmuxClient, args: string[]): Promise<string> {
  try {
    await tmux(args);
    return "";
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    return text.trim().split("\n").slice(-1)[0]?.slice(0, 300) || "failed";
  }
}

async function waitFor(
  cond: () => Promise<boolean>,
  ms: number,
  signal?: AbortSignal,
  why?: () => string,
): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await cond()) return;
    if (signal?.aborted) throw signal.reason;
    if (Date.now() > end)
      throw new InfraError(`tmux did not come up within ${ms} ms${why ? ` (${why()})` : ""}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
