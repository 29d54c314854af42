import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { InfraError } from "../core/index.js";
import { createViewerApp } from "./app.js";

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
    throw new InfraError(`cannot listen on ${host}:${opts.port}: ${String(e)}`, {
      cause: e,
      retryable: false,
    });
  }
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/`,
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
