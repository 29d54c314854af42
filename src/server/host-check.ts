/**
 * Which Host headers the viewer answers. It listens on loopback, but a web page on another site
 * can point its own name at 127.0.0.1 (DNS rebinding) and then read the JSON API as same-origin;
 * such a request still carries that site's name in Host, so only loopback names are served.
 */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** The name of a Host header value, or null when it is not `name[:port]`. */
function hostName(host: string): string | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(host.trim());
  return m?.[1]?.toLowerCase() ?? null;
}

/** A host name as it appears in a Host header: IPv6 addresses in brackets. */
export function hostHeaderName(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host.toLowerCase()}]` : host.toLowerCase();
}

/**
 * Whether a request's Host may be served: a loopback name or one of `extraNames`, on any port. A
 * rebinding page's requests carry its own name; the port is not checked, so the viewer also
 * answers through a tunnel to another local port (ssh -L 9000:127.0.0.1:7878).
 */
export function hostAllowed(host: string, extraNames: readonly string[]): boolean {
  const name = hostName(host);
  return name !== null && (LOOPBACK_NAMES.includes(name) || extraNames.map(hostHeaderName).includes(name));
}
