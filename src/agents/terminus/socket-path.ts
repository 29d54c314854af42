import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { InfraError } from "../../core/index.js";

/**
 * A Unix socket address holds at most 107 bytes, and a sandbox's state folder under a long
 * TMPDIR (plus the trial's name) easily passes that: the host's tmux client then cannot reach
 * the server at all. Connecting follows symlinks, so a long path is reached through a short link
 * to its folder, made in /tmp.
 */
const MAX_SOCKET_PATH = 100;

export interface ReachableSocket {
  path: string;
  /** Removes the short link, if one was made. */
  release(): void;
}

export function reachableSocket(hostSocket: string): ReachableSocket {
  if (Buffer.byteLength(hostSocket) <= MAX_SOCKET_PATH) return { path: hostSocket, release: () => undefined };
  let dir: string;
  try {
    dir = mkdtempSync("/tmp/longhaul-sock-");
    symlinkSync(dirname(hostSocket), join(dir, "d"));
  } catch (e) {
    throw new InfraError(`socket path ${hostSocket} is too long and no short link could be made in /tmp`, {
      cause: e,
    });
  }
  live.add(dir);
  return {
    path: join(dir, "d", basename(hostSocket)),
    release: () => {
      live.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Links of sessions still open when the process exits are removed with it.
const live = new Set<string>();
process.on("exit", () => {
  for (const d of live) rmSync(d, { recursive: true, force: true });
});
