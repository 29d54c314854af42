/**
 * The in-sandbox forwarder, run with the sandbox's Node as `node -e FORWARDER_SCRIPT <socket> <argv…>`.
 * A sandbox without network still has its own loopback: the forwarder listens on a free port of
 * 127.0.0.1 there and pipes every connection to the model endpoint's unix socket (bound in from
 * the host). Once listening it starts the agent as its child with `{{PORT}}` replaced by that port
 * in the argv and environment, passes signals on, and exits with the agent's status, so one exec
 * holds both and nothing outlives the agent. Dependency-free on purpose: it runs on any Node ≥ 16.
 */
export const FORWARDER_SCRIPT = `"use strict";
const net = require("net"), cp = require("child_process"), os = require("os");
const [sock, ...argv] = process.argv.slice(1);
const srv = net.createServer((c) => {
  const u = net.connect(sock);
  c.pipe(u); u.pipe(c);
  c.on("error", () => u.destroy()); u.on("error", () => c.destroy());
  c.on("close", () => u.destroy()); u.on("close", () => c.destroy());
});
srv.on("error", (e) => { console.error("longhaul-forwarder: " + e.message); process.exit(125); });
srv.listen(0, "127.0.0.1", () => {
  const port = String(srv.address().port);
  const sub = (s) => s.split("{{PORT}}").join(port);
  const env = {};
  for (const [k, v] of Object.entries(process.env)) env[k] = sub(v);
  const child = cp.spawn(sub(argv[0]), argv.slice(1).map(sub), { stdio: "inherit", env });
  for (const s of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(s, () => child.kill(s));
  child.on("error", (e) => { console.error("longhaul-forwarder: " + e.message); process.exit(127); });
  child.on("exit", (code, sig) => process.exit(code === null ? 128 + (os.constants.signals[sig] || 0) : code));
});
`;

/** The placeholder the forwarder replaces with its port, in the agent's argv and environment. */
export const PORT_PLACEHOLDER = "{{PORT}}";
