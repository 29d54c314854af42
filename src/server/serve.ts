import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { InfraError, UserError } from "../core/index.js";
import { createViewerApp } from "./app.js";
import { hostHeaderName } from "./host-check.js";

/** Where the viewer reads jobs, and the port and address it listens on (loopback unless told). */
export interface ServeOptions {
  jobsDir: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Host names answered besides loopback ones and `host` (see ViewerOptions). */
  allowedHosts?: readonly string[];
}

/** A viewer listening over HTTP: its URL and how to stop it. */
export interface RunningViewer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves the viewer over HTTP, on the loopback interface unless told otherwise. */
export async function startViewer(opts: ServeOptions): Promise<RunningViewer> {
  const host = opts.host ?? "127.0.0.1";
  // The address it was told to listen on is a name clients may use; loopback names always are.
  const viewer = await createViewerApp({
    jobsDir: opts.jobsDir,
    allowedHosts: [host, ...(opts.allowedHosts ?? [])],
  });
  const server = serve({ fetch: viewer.app.fetch, port: opts.port, hostname: host });
  try {
    await new Promise<void>((resolveListen, rejectListen) => {
      server.once("listening", () => resolveListen());
      server.once("error", rejectListen);
    });
  } catch (e) {
    await viewer.close();
    throw listenError(e, host, opts.port);
  }
  const port = (server.address() as AddressInfo).port;
  return {
    // An IPv6 address goes in brackets, as in any URL (http://[::1]:7878/).
    url: `http://${hostHeaderName(host)}:${port}/`,
    port,
    close: async () => {
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        // Keep-alive connections from a browser would otherwise hold close() open.
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      await viewer.close();
    },
  };
}

/**
 * A port taken by another program, one that needs privileges, or an address this machine does not
 * have is the caller's to change (a user error, one line); anything else is the machinery's.
 */
function listenError(e: unknown, host: string, port: number): Error {
  const code = (e as NodeJS.ErrnoException).code;
  const where = `${host}:${port}`;
  if (code === "EADDRINUSE")
    return new UserError(`${where} is already in use; choose another port (0 picks a free one)`, {
      cause: e,
    });
  if (code === "EACCES")
    return new UserError(`no permission to listen on ${where}; choose a port above 1023`, { cause: e });
  if (code === "EADDRNOTAVAIL")
    return new UserError(`${host} is not an address of this machine`, { cause: e });
  return new InfraError(`cannot listen on ${where}: ${String(e)}`, { cause: e, retryable: false });
}
