import { IncomingMessage } from "node:http";

/**
 * Which Host headers the viewer answers. It listens on loopback, but a web page on another site
 * can point its own name at 127.0.0.1 (DNS rebinding) and then read the JSON API as same-origin;
 * such a request still carries that site's name in Host, so only loopback names are served.
 */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** `name` and `port` of a Host header value, or null when it is not `name[:port]`. */
function splitHost(host: string): { name: string; port: number } | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  if (m === null || m[1] === undefined) return null;
  return { name: m[1].toLowerCase(), port: m[2] === undefined ? 80 : Number(m[2]) };
}

/** A host name as it appears in a Host header: IPv6 addresses in brackets. */
export function hostHeaderName(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host.toLowerCase()}]` : host.toLowerCase();
}

/**
 * Whether a request's Host may be served: a loopback name or one of `extraNames`, with the port
 * the request came in on when that is known (it is not for `app.request` in tests).
 */
export function hostAllowed(
  host: string,
  localPort: number | undefined,
  extraNames: readonly string[],
): boolean {
  const h = splitHost(host);
  if (h === null) return false;
  if (!LOOPBACK_NAMES.includes(h.name) && !extraNames.map(hostHeaderName).includes(h.name)) return false;
  return localPort === undefined || h.port === localPort;
}

/** The local port of the connection a request came in on, from @hono/node-server's bindings. */
export function localPortOf(env: unknown): number | undefined {
  if (typeof env !== "object" || env === null || !("incoming" in env)) return undefined;
  const incoming = env.incoming;
  return incoming instanceof IncomingMessage ? incoming.socket.localPort : undefined;
}
