import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeBackground } from "./conformance-background.js";
import { describePerExecViews } from "./conformance-exec-views.js";
import { describeFreshImageRoot } from "./conformance-image-root.js";
import { describeLimits } from "./conformance-limits.js";
import type { Sandbox, SandboxProvider, SandboxSpec } from "./types.js";

/**
 * The contract every sandbox provider must meet, as a vitest suite. A provider's test file calls
 * `describeSandboxConformance("name", () => new MyProvider())`. The sandbox image must have bash,
 * coreutils and python3. Limits are checked with small values (pidsMax 64, memoryMb 128).
 */
export interface ConformanceOptions {
  /**
   * Host files the sandbox must not read (say 0600 root files the test made under /etc): each
   * must fail to open inside, and its content must never show.
   */
  hostSecrets?: readonly { path: string; content: string }[];
  /** Fields every sandbox of the suite is created with, e.g. `{ image }` to run over an image. */
  spec?: Partial<SandboxSpec>;
  /**
   * The system folders are an image's own root file system, writable and private to the sandbox
   * (the decided semantics of image sandboxes, docs/sandbox.md; docker always runs over an image).
   * Writes outside the persistent folders are then allowed but must stay inside the sandbox, and
   * files there that only root may read are the image's own, not the host's, so an exec running
   * as the image's root may read them: only the planted host secrets are checked.
   */
  imageRoot?: boolean;
}

/** Declares the vitest suite every sandbox provider must pass (see ConformanceOptions). */
export function describeSandboxConformance(
  name: string,
  makeProvider: () => SandboxProvider | Promise<SandboxProvider>,
  options: ConformanceOptions = {},
): void {
  // Host files changed after this moment are not this suite's (see the root-only walk below).
  const suiteStart = Date.now() / 1000;
  describe(`sandbox conformance: ${name}`, () => {
    let provider: SandboxProvider;
    let root: string;
    let shared: Sandbox;
    let count = 0;
    let server: Server;
    let port = 0;
    const open: Sandbox[] = [];

    const make = async (over: Partial<SandboxSpec> = {}): Promise<Sandbox> => {
      count += 1;
      const sandbox = await provider.create({
        environmentDir: null,
        workdir: "/app",
        memoryMb: 512,
        cpus: 1,
        pidsMax: 256,
        allowInternet: false,
        stateDir: join(root, `state-${count}`),
        ...options.spec,
        ...over,
      });
      open.push(sandbox);
      return sandbox;
    };
    const sha = (data: Buffer): string => createHash("sha256").update(data).digest("hex");
    const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

    beforeAll(async () => {
      provider = await makeProvider();
      await provider.check();
      root = mkdtempSync(join(tmpdir(), "longhaul-conformance-"));
      shared = await make();
      server = createServer((c) => c.end("hello from the host\n"));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const addr = server.address();
      port = typeof addr === "object" && addr !== null ? addr.port : 0;
    });

    afterAll(async () => {
      for (const s of open) await s.close();
      if (root !== undefined) rmSync(root, { recursive: true, force: true });
      await new Promise((r) => server?.close(r));
    });

    it("runs strings with bash and argv arrays without a shell, reporting exit codes", async () => {
      expect((await shared.exec("exit 3")).exitCode).toBe(3);
      expect((await shared.exec(["false"])).exitCode).toBe(1);
      const argv = await shared.exec(["printf", "%s|", "a b", "$HOME"]);
      expect(argv).toMatchObject({ exitCode: 0, stdout: "a b|$HOME|", timedOut: false });
      const piped = await shared.exec("echo one two | wc -w");
      expect(piped.stdout.trim()).toBe("2");
      const missing = await shared.exec(["no-such-command-anywhere"]);
      expect(missing.exitCode).toBeGreaterThan(0);
      // A very long limit (past 2^31 ms) is still a limit, not an immediate timeout.
      expect(await shared.exec("exit 0", { timeoutSec: 1e7 })).toMatchObject({
        exitCode: 0,
        timedOut: false,
      });
    });

    it("captures stdout and stderr apart, and caps each stream", async () => {
      const r = await shared.exec("echo out; echo err >&2");
      expect(r).toMatchObject({ stdout: "out\n", stderr: "err\n", truncated: false });
      const big = await shared.exec("head -c 3000000 /dev/zero | tr '\\0' a; echo small >&2", {
        maxOutputBytes: 1000,
      });
      expect(big.exitCode).toBe(0);
      expect(big.stdout).toBe("a".repeat(1000));
      expect(big.stderr).toBe("small\n");
      expect(big.truncated).toBe(true);
    });

    it("feeds stdin, and gives EOF when there is none", async () => {
      expect((await shared.exec("cat", { stdin: "hello\nworld\n" })).stdout).toBe("hello\nworld\n");
      const r = await shared.exec(["cat"], { timeoutSec: 10 });
      expect(r).toMatchObject({ exitCode: 0, stdout: "", timedOut: false });
    });

    it("starts from a clean environment plus the given variables", async () => {
      process.env.LONGHAUL_CONFORMANCE_LEAK = "host-only";
      try {
        const r = await shared.exec("env", { env: { GREETING: "hi there" } });
        expect(r.stdout).toContain("GREETING=hi there\n");
        expect(r.stdout).toContain("HOME=/root\n");
        expect(r.stdout).toMatch(/^PATH=.*\/usr\/bin/m);
        expect(r.stdout).not.toContain("LONGHAUL_CONFORMANCE_LEAK");
      } finally {
        delete process.env.LONGHAUL_CONFORMANCE_LEAK;
      }
    });

    it("runs in the workdir by default and in cwd when given", async () => {
      expect((await shared.exec("pwd")).stdout).toBe("/app\n");
      expect((await shared.exec(["pwd"], { cwd: "/tmp" })).stdout).toBe("/tmp\n");
    });

    it("kills the command and every child on timeout", async () => {
      const cmd = "(while :; do echo x >> /tmp/ticks; sleep 0.05; done) & sleep 100 & sleep 100";
      const r = await shared.exec(cmd, { timeoutSec: 1 });
      expect(r).toMatchObject({ exitCode: null, timedOut: true });
      expect(r.durationSec).toBeLessThan(8);
      await sleep(200);
      const before = (await shared.exec("wc -c < /tmp/ticks")).stdout.trim();
      await sleep(400);
      const after = (await shared.exec("wc -c < /tmp/ticks")).stdout.trim();
      expect(Number(before)).toBeGreaterThan(0);
      expect(after).toBe(before);
    });

    it("kills the command when its signal aborts", async () => {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 300);
      const r = await shared.exec(["sleep", "100"], { signal: ac.signal });
      expect(r).toMatchObject({ exitCode: null, timedOut: false });
      expect(r.durationSec).toBeLessThan(8);
    });

    it("round-trips a file and a folder through upload and download", async () => {
      const src = join(root, "upload-src");
      mkdirSync(join(src, "sub"), { recursive: true });
      const bin = randomBytes(70_000);
      writeFileSync(join(src, "a.txt"), "alpha\n");
      writeFileSync(join(src, "sub", "b.bin"), bin);
      await shared.upload(src, "/app/data");
      await shared.upload(join(src, "a.txt"), "/root/notes/a-copy.txt");
      const inside = await shared.exec("sha256sum < /app/data/sub/b.bin; cat /root/notes/a-copy.txt");
      expect(inside.stdout).toBe(`${sha(bin)}  -\nalpha\n`);
      await shared.exec("echo changed > /app/data/a.txt && echo new > /app/data/sub/c.txt");
      const dest = join(root, "download-dest");
      await shared.download("/app/data", dest);
      expect(readFileSync(join(dest, "a.txt"), "utf8")).toBe("changed\n");
      expect(readFileSync(join(dest, "sub", "c.txt"), "utf8")).toBe("new\n");
      expect(sha(readFileSync(join(dest, "sub", "b.bin")))).toBe(sha(bin));
      await shared.download("/root/notes/a-copy.txt", join(root, "single.txt"));
      expect(readFileSync(join(root, "single.txt"), "utf8")).toBe("alpha\n");
      await expect(shared.download("/app/no-such-file", join(root, "x"))).rejects.toThrow();
    });

    it("keeps files across execs in the workdir, /logs, /tmp and /root", async () => {
      const w = await shared.exec("for d in /app /logs /tmp /root; do echo kept > $d/persist.txt; done");
      expect(w.exitCode).toBe(0);
      const r = await shared.exec("cat /app/persist.txt /logs/persist.txt /tmp/persist.txt ~/persist.txt");
      expect(r.stdout).toBe("kept\n".repeat(4));
      expect((await shared.exec("test -d /logs/agent && test -d /logs/verifier")).exitCode).toBe(0);
    });

    it("copies the environment folder fresh into the workdir", async () => {
      const env = join(root, "environment");
      mkdirSync(join(env, "src"), { recursive: true });
      writeFileSync(join(env, "src", "main.py"), "print('from env')\n");
      const s = await make({ environmentDir: env });
      expect((await s.exec("python3 src/main.py")).stdout).toBe("from env\n");
      await s.exec("echo mutated > /app/src/main.py");
      expect(readFileSync(join(env, "src", "main.py"), "utf8")).toBe("print('from env')\n");
    });

    it("has no network: only lo, and a host server is unreachable", async () => {
      const dev = await shared.exec("cat /proc/net/dev");
      const ifaces = dev.stdout
        .split("\n")
        .slice(2)
        .map((l) => l.split(":")[0]?.trim())
        .filter((x) => x);
      expect(ifaces).toEqual(["lo"]);
      const probe = [
        "import socket, sys",
        "for host, port in [('1.1.1.1', 53), (sys.argv[1], 80), ('127.0.0.1', int(sys.argv[2]))]:",
        "    try:",
        "        socket.create_connection((host, port), timeout=2); print('connected', host)",
        "    except OSError as e:",
        "        print('failed', host)",
      ].join("\n");
      const gateway = defaultGateway() ?? "10.0.0.1";
      const r = await shared.exec(["python3", "-c", probe, gateway, String(port)], { timeoutSec: 20 });
      expect(r.stdout).not.toContain("connected");
      expect(r.stdout.split("\n").filter((l) => l.startsWith("failed"))).toHaveLength(3);
      const tcp = await shared.exec(`exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`, { timeoutSec: 10 });
      expect(tcp.exitCode).not.toBe(0);
      expect(tcp.stdout).not.toContain("hello from the host");
    });

    it("shows no host files beyond its folders and cannot write outside them", async () => {
      const s = await make();
      const hostOnly = [root, process.cwd(), join(homedir(), ".longhaul-never-there")];
      const hostHome = spawnSync("ls", ["-A", homedir()], { encoding: "utf8" })
        .stdout.split("\n")
        .filter((n) => n && ![".bashrc", ".profile", ".cache", ".config", ".local"].includes(n))
        .slice(0, 5)
        .map((n) => join("/root", n));
      const probe = [...hostOnly, ...hostHome].map((p) => `test -e '${p}' && echo "visible ${p}"`);
      const seen = await s.exec(`${probe.join("; ")}; ls -A /home; true`);
      expect(seen.stdout).toBe("");
      const mark = `longhaul-conformance-${randomBytes(4).toString("hex")}`;
      const writes = await s.exec(
        `for p in /etc/x /usr/x /x /opt/x /var/x /bin/x /etc/${mark}; do touch $p 2>/dev/null && echo wrote $p; done; ` +
          "for d in /app /logs /tmp /root; do touch $d/ok || echo failed $d; done; true",
      );
      if (options.imageRoot === true) {
        // Written to the sandbox's own root file system: never the host's, never another sandbox's.
        expect(writes.stdout).not.toContain("failed");
        expect(existsSync(`/etc/${mark}`)).toBe(false);
        expect((await shared.exec(`test -e /etc/${mark}`)).exitCode).not.toBe(0);
      } else {
        expect(writes.stdout).toBe("");
      }
    });

    it("has no capabilities and cannot mount", async () => {
      const caps = await shared.exec("grep CapEff /proc/self/status");
      expect(caps.stdout).toMatch(/CapEff:\s+0+\n/);
      const mount = await shared.exec("mkdir -p /tmp/m && mount -t tmpfs none /tmp/m");
      expect(mount.exitCode).not.toBe(0);
    });

    describeLimits(make);

    it("cannot read host files that only root may read", async () => {
      const s = await make();
      for (const secret of options.hostSecrets ?? []) {
        const r = await s.exec(["cat", secret.path]);
        expect(r.exitCode, secret.path).not.toBe(0);
        expect(r.stdout + r.stderr).not.toContain(secret.content);
      }
      if (options.imageRoot === true) return;
      // Every regular file without the world-read bit, and every folder without world read and
      // search, must refuse to open (masks may show as device nodes, which do not count). The
      // host is scanned once per process, so what changed after this suite began (another test
      // process planting its own secrets meanwhile) is outside the guarantee and skipped.
      const walk = [
        "import os, stat, sys",
        `SINCE = ${suiteStart}`,
        "bad = []",
        "for top in ['/etc', '/var', '/opt']:",
        "    for d, subdirs, files in os.walk(top):",
        "        for n in subdirs + files:",
        "            p = os.path.join(d, n)",
        "            try: st = os.lstat(p)",
        "            except OSError: continue",
        "            if st.st_ctime > SINCE: continue",
        "            if stat.S_ISREG(st.st_mode) and not st.st_mode & 0o004:",
        "                try: open(p, 'rb').close(); bad.append(p)",
        "                except OSError: pass",
        "            elif stat.S_ISDIR(st.st_mode) and st.st_mode & 0o005 != 0o005:",
        "                try: os.listdir(p); bad.append(p)",
        "                except OSError: pass",
        "print('\\n'.join(bad))",
      ].join("\n");
      const r = await s.exec(["python3", "-c", walk], { timeoutSec: 120 });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.trim()).toBe("");
    });

    it("killAll ends running execs and background processes", async () => {
      const s = await make();
      expect(typeof s.spawnBackground).toBe("function");
      await s.spawnBackground?.([
        "sh",
        "-c",
        "while :; do date +%s%N > /tmp/bg.new && mv /tmp/bg.new /tmp/bg; sleep 0.05; done",
      ]);
      const running = s.exec(["sleep", "100"]);
      await sleep(400);
      // The background process outlives other execs until killAll.
      const a = (await s.exec("cat /tmp/bg")).stdout;
      await sleep(300);
      const b = (await s.exec("cat /tmp/bg")).stdout;
      expect(b).not.toBe(a);
      await s.killAll();
      const killed = await running;
      expect(killed.exitCode).toBeNull();
      const c = (await s.exec("cat /tmp/bg")).stdout;
      await sleep(300);
      expect((await s.exec("cat /tmp/bg")).stdout).toBe(c);
    });

    describeBackground({ make, imageRoot: options.imageRoot === true });
    describePerExecViews({ make, root: () => root, shared: () => shared });
    if (options.imageRoot === true) describeFreshImageRoot({ make, root: () => root, shared: () => shared });
  });
}

/** The host's default IPv4 gateway (a reachable address outside the sandbox), if any. */
function defaultGateway(): string | null {
  try {
    for (const line of readFileSync("/proc/net/route", "utf8").split("\n").slice(1)) {
      const [, dest, gw] = line.trim().split(/\s+/);
      if (dest === "00000000" && gw !== undefined) {
        const n = Number.parseInt(gw, 16);
        return [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >> 24) & 255].join(".");
      }
    }
  } catch {
    // No route table: fall back to a fixed private address.
  }
  return null;
}
