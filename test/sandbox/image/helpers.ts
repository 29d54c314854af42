import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_BASE_IMAGE } from "../../support/base-image.js";

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `longhaul-img-${prefix}-`));
}

/**
 * A build context exercising what the cache must get right: WORKDIR, COPY, ENV, a file made by a
 * RUN, and files a later RUN deletes (whiteouts, one of them a whole folder made again: an opaque
 * folder). `nonce` makes the context new on every test run, so the first build is a real build.
 */
export function writeEnv(dir: string, nonce = randomBytes(6).toString("hex")): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "hello.txt"), `hello ${nonce}\n`);
  writeFileSync(
    join(dir, "Dockerfile"),
    [
      `FROM ${TEST_BASE_IMAGE}`,
      "WORKDIR /app",
      "COPY hello.txt /app/hello.txt",
      "ENV FOO=bar",
      "RUN echo made > /app/made.txt && echo temp > /app/temp.txt && mkdir -p /opt/gone && echo x > /opt/gone/f",
      "RUN rm /app/temp.txt && rm -rf /opt/gone && mkdir /opt/gone && echo new > /opt/gone/g",
      "",
    ].join("\n"),
  );
  return nonce;
}

/** Every entry under `root` as `path type mode uid:gid size`, sorted: what two copies must share. */
export function listTree(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel))) {
      const r = rel === "" ? name : `${rel}/${name}`;
      const st = lstatSync(join(root, r));
      const type = st.isDirectory() ? "d" : st.isSymbolicLink() ? "l" : st.isFile() ? "f" : "o";
      out.push(
        `${r} ${type} ${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid} ${type === "f" ? st.size : ""}`,
      );
      if (st.isDirectory()) walk(r);
    }
  };
  walk("");
  return out.sort();
}

export function removeImage(tag: string): void {
  try {
    execFileSync("docker", ["rmi", "-f", tag], { stdio: "ignore" });
  } catch {
    // Already gone.
  }
}

/** Points LONGHAUL_CACHE_DIR at `dir`; the returned function puts back what it was. */
export function useCacheDir(dir: string): () => void {
  const saved = process.env.LONGHAUL_CACHE_DIR;
  process.env.LONGHAUL_CACHE_DIR = dir;
  return () => {
    if (saved === undefined) delete process.env.LONGHAUL_CACHE_DIR;
    else process.env.LONGHAUL_CACHE_DIR = saved;
  };
}
