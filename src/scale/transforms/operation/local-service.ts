import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { PY_CRYPTO, seal } from "../shared/crypto.js";
import { randomBytes, toHex } from "../shared/names.js";
import { pathArg, sq } from "../shared/shell.js";
import { checkTargets, codeList } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({ port: z.number().int().min(1024).max(65535) }).strict();
export type LocalServiceParams = z.infer<typeof Params>;

function serverPy(port: number, key: Uint8Array, files: Record<string, [number, number]>): string {
  return `#!/usr/bin/env python3
"""Local file service on 127.0.0.1:${port}. Usage: server.py [--port N] [--idle SECONDS]
  GET /index              JSON list of the file names it serves
  GET /files/<name>       the file (name URL-encoded, e.g. data%2Fa.csv); header X-Content-SHA256
  GET /shutdown           stop the server
It stops by itself after --idle seconds without a request (default 600)."""
import http.server, json, os, sys, time, urllib.parse

${PY_CRYPTO}

PORT = ${port}
KEY = bytes.fromhex("${toHex(key)}")
FILES = json.loads(${JSON.stringify(JSON.stringify(files))})
HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    offset, length = FILES[name]
    with open(os.path.join(HERE, "objects.bin"), "rb") as f:
        f.seek(offset)
        return unseal(KEY, f.read(length))


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, code, body, kind="application/octet-stream"):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if code == 200:
            self.send_header("X-Content-SHA256", hashlib.sha256(body).hexdigest())
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.server.last = time.monotonic()
        path = self.path.split("?", 1)[0]
        if path == "/index":
            self.send(200, json.dumps(sorted(FILES)).encode("utf-8"), "application/json")
        elif path == "/shutdown":
            self.server.stop = True
            self.send(200, b"stopping\\n", "text/plain")
        elif path.startswith("/files/") and urllib.parse.unquote(path[7:]) in FILES:
            self.send(200, load(urllib.parse.unquote(path[7:])))
        else:
            self.send(404, b"not found\\n", "text/plain")


def main(argv):
    port, idle = PORT, 600.0
    for flag, value in zip(argv[1::2], argv[2::2]):
        if flag == "--port":
            port = int(value)
        elif flag == "--idle":
            idle = float(value)
        else:
            sys.exit(__doc__)
    server = http.server.HTTPServer(("127.0.0.1", port), Handler)
    server.timeout = 0.25
    server.stop, server.last = False, time.monotonic()
    try:
        while not server.stop and time.monotonic() - server.last < idle:
            server.handle_request()
    finally:
        server.server_close()


if __name__ == "__main__":
    main(sys.argv)
`;
}

const FETCH_PY = `#!/usr/bin/env python3
"""Fetches URL into OUT, waiting for a local server to come up: fetch.py URL OUT [--wait SECONDS]
Never uses a proxy; checks the X-Content-SHA256 header when the server sends one."""
import hashlib, sys, time, urllib.error, urllib.request

${PY_CRYPTO}

def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--wait"):
        sys.exit("usage: fetch.py URL OUT [--wait SECONDS]")
    url, out = argv[1], argv[2]
    deadline = time.monotonic() + (float(argv[4]) if len(argv) == 5 else 30.0)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    while True:
        try:
            with opener.open(url, timeout=10) as r:
                body, digest = r.read(), r.headers.get("X-Content-SHA256")
            break
        except urllib.error.HTTPError as e:
            sys.exit("%s: HTTP %d" % (url, e.code))
        except OSError as e:
            if time.monotonic() > deadline:
                sys.exit("%s: no answer (%s)" % (url, e))
            time.sleep(0.1)
    if digest is not None and hashlib.sha256(body).hexdigest() != digest:
        sys.exit("%s: body does not match its X-Content-SHA256" % url)
    write_out(out, body)


if __name__ == "__main__":
    main(sys.argv)
`;

const FETCH_PATH = ".tools/fetch.py";

/**
 * Makes the target reachable only through a small placed HTTP server on a loopback port: the
 * bytes sit sealed next to the server, which decrypts and serves them. Restore starts the server
 * in the background, fetches with urllib (waiting for the port), then stops it.
 */
export const localServiceTransform: Transform<LocalServiceParams> = {
  name: "local-service",
  kind: "operation",
  basic: false,
  summary: "serve files only through a placed python3 HTTP server on a loopback port",
  restoreDoc:
    "Start the placed `server.py` in the background, fetch `http://127.0.0.1:<port>/files/<name>` (the placed " +
    "`fetch.py` waits for the port), then stop the server.",
  params: Params,
  arity: "one",
  accepts: () => true,
  defaultParams: (seed) => ({ port: new Rng(seed).int(20000, 60999) }),
  apply({ env, targets, params, seed }) {
    checkTargets("local-service", env, targets);
    const rng = new Rng(`local-service/${seed}`);
    const b = new TreeBuilder(env);
    const key = randomBytes(rng, 32);
    const files: Record<string, [number, number]> = {};
    const blobs: Uint8Array[] = [];
    let offset = 0;
    for (const t of targets) {
      const sealed = seal(key, b.take(t));
      files[t] = [offset, sealed.length];
      blobs.push(sealed);
      offset += sealed.length;
    }
    const dir = b.fresh(rng, (tok) => `.svc/${tok}`, 8);
    const server = `${dir}/server.py`;
    b.put(`${dir}/objects.bin`, new Uint8Array(Buffer.concat(blobs)));
    b.put(server, utf8.encode(serverPy(params.port, key, files)));
    const fetch = b.placeShared(FETCH_PATH, utf8.encode(FETCH_PY), rng);
    const base = `http://127.0.0.1:${params.port}`;
    const url = (t: string): string => `${base}/files/${encodeURIComponent(t)}`;
    const fetches = targets
      .map((t) => `python3 ${pathArg(fetch)} ${sq(url(t))} ${pathArg(t)} --wait 15`)
      .join(" && ");
    return {
      env: b.build(),
      access:
        `${codeList(targets)} ${targets.length === 1 ? "is" : "are"} only available from a local service: start ` +
        `\`python3 ${server}\` in the background (it listens on 127.0.0.1:${params.port}) and GET ` +
        `\`${base}/files/<URL-encoded path>\` (\`${base}/index\` lists the paths), e.g. with ` +
        `\`python3 ${fetch} URL OUT\`, which waits for the port. Stop the server afterwards ` +
        `(GET \`${base}/shutdown\`, or kill it).`,
      restore: [
        {
          run:
            `( python3 ${pathArg(server)} --idle 120 >/dev/null 2>&1 & s=$!; ${fetches}; r=$?; ` +
            `kill "$s" 2>/dev/null; wait "$s" 2>/dev/null; [ "$r" -eq 0 ] )`,
          why: `start the local service, fetch ${targets.join(", ")}, stop the service`,
        },
      ],
      produced: [server, `${dir}/objects.bin`, fetch],
      removed: [...targets],
    };
  },
};
