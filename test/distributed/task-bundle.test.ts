import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BlobError,
  BlobStore,
  blobKey,
  fetchTask,
  packDir,
  sha256,
  unpackTo,
  uploadTask,
} from "../../src/distributed/index.js";
import { loadTask } from "../../src/task/index.js";
import { FIXTURES } from "../runner/helpers.js";
import { type RedisServer, startRedis } from "../support/redis-server.js";

let redis: RedisServer;
let conn: Redis;
let tmp: string;

beforeAll(async () => {
  redis = await startRedis();
  conn = new Redis(redis.url, { maxRetriesPerRequest: null });
  tmp = mkdtempSync(join(tmpdir(), "longhaul-test-bundle-"));
});

afterAll(async () => {
  conn?.disconnect();
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe("task bundles", () => {
  it("pack the same tree to the same bytes wherever it lies and whatever its times", () => {
    const a = join(tmp, "a", "slow");
    const b = join(tmp, "b", "slow");
    cpSync(join(FIXTURES, "slow"), a, { recursive: true });
    cpSync(join(FIXTURES, "slow"), b, { recursive: true });
    utimesSync(join(b, "task.toml"), new Date(0), new Date(0));
    const packA = packDir(a);
    expect(packDir(b).equals(packA)).toBe(true);
    expect(packDir(a).equals(packA)).toBe(true);
    // A changed byte or a changed mode is a different bundle.
    writeFileSync(join(b, "instruction.md"), `${readFileSync(join(b, "instruction.md"), "utf8")} `);
    expect(sha256(packDir(b))).not.toBe(sha256(packA));
    chmodSync(join(a, "solution", "solve.sh"), 0o700);
    expect(sha256(packDir(a))).not.toBe(sha256(packA));
  });

  it("unpack to a tree that packs back to the same bytes, modes and links kept", () => {
    const src = join(tmp, "src");
    cpSync(join(FIXTURES, "trivial"), src, { recursive: true });
    chmodSync(join(src, "solution", "solve.sh"), 0o755);
    symlinkSync("solve.sh", join(src, "solution", "link.sh"));
    mkdirSync(join(src, "empty"));
    const bytes = packDir(src);
    const out = join(tmp, "out");
    unpackTo(bytes, out);
    expect(packDir(out).equals(bytes)).toBe(true);
    expect(statSync(join(out, "solution", "solve.sh")).mode & 0o777).toBe(0o755);
  });

  it("refuse a pack whose paths would leave its folder", () => {
    const evil = (path: string): Buffer => {
      const p = Buffer.from(path);
      const head = Buffer.alloc(13);
      head.write("f", 0, "latin1");
      head.writeUInt32BE(0o644, 1);
      head.writeUInt32BE(p.length, 5);
      head.writeUInt32BE(1, 9);
      return Buffer.concat([Buffer.from("LHPK1\n"), head, p, Buffer.from("x")]);
    };
    expect(() => unpackTo(evil("../escape"), join(tmp, "e1"))).toThrow(/leave its folder/);
    expect(() => unpackTo(evil("/etc/x"), join(tmp, "e2"))).toThrow(/leave its folder/);
  });

  it("reach a worker by digest, once, and a tampered or missing blob is refused", async () => {
    const blobs = new BlobStore(conn);
    const task = await loadTask(join(FIXTURES, "seeded"));
    const ref = await uploadTask(blobs, task);
    expect(ref.bundle).toBe(sha256(packDir(task.dir)));
    // Uploading again stores nothing new: the key is the digest.
    expect((await uploadTask(blobs, task)).bundle).toBe(ref.bundle);
    expect(await conn.keys("longhaul:blob:*")).toEqual([blobKey(ref.bundle)]);

    const cache = join(tmp, "cache");
    const fetched = await fetchTask(blobs, ref, cache);
    expect(fetched.name).toBe(task.name);
    expect(fetched.checksum).toBe(task.checksum);
    expect(fetched.dir.startsWith(join(cache, "tasks", ref.bundle))).toBe(true);

    // A second worker cache gets a tampered blob: refused, nothing unpacked.
    const good = await conn.getBuffer(blobKey(ref.bundle));
    if (good === null) throw new Error("blob vanished");
    const bad = Buffer.from(good);
    bad[bad.length - 2] = (bad[bad.length - 2] ?? 0) ^ 1;
    await conn.set(blobKey(ref.bundle), bad);
    await expect(fetchTask(blobs, ref, join(tmp, "cache2"))).rejects.toThrow(/damaged/);
    await expect(fetchTask(blobs, ref, join(tmp, "cache2"))).rejects.toBeInstanceOf(BlobError);
    // The first cache never downloads again: its copy is named by the digest it was checked against.
    expect((await fetchTask(blobs, ref, cache)).checksum).toBe(task.checksum);

    await conn.del(blobKey(ref.bundle));
    await expect(fetchTask(blobs, ref, join(tmp, "cache3"))).rejects.toThrow(/missing/);
  });

  it("put repairs a stored blob whose bytes were damaged", async () => {
    const blobs = new BlobStore(conn);
    const bytes = Buffer.from("a task bundle's bytes");
    const digest = await blobs.put(bytes, 60);
    await conn.set(blobKey(digest), Buffer.from("damaged"));
    await expect(blobs.get(digest)).rejects.toThrow(/damaged/);
    // Uploading the same bytes again (a coordinator's resume) writes them over the damage.
    expect(await blobs.put(bytes, 60)).toBe(digest);
    expect((await blobs.get(digest)).equals(bytes)).toBe(true);
    expect(await conn.ttl(blobKey(digest))).toBeGreaterThan(0);
  });

  it("a worker's damaged cached copy of a task is fetched again, not failed", async () => {
    const blobs = new BlobStore(conn);
    const task = await loadTask(join(FIXTURES, "seeded"));
    const ref = await uploadTask(blobs, task);
    const cache = join(tmp, "cache-damaged");
    const fetched = await fetchTask(blobs, ref, cache);
    // Someone edits the cached copy: its checksum no longer matches the queued trial's.
    writeFileSync(join(fetched.dir, "instruction.md"), "edited on the worker\n");
    const again = await fetchTask(blobs, ref, cache);
    expect(again.checksum).toBe(task.checksum);
    expect(readFileSync(join(again.dir, "instruction.md"), "utf8")).toBe(
      readFileSync(join(task.dir, "instruction.md"), "utf8"),
    );
    // A half-deleted copy (task.toml gone) too.
    rmSync(join(again.dir, "task.toml"));
    expect((await fetchTask(blobs, ref, cache)).checksum).toBe(task.checksum);
    // Only a fresh copy that is wrong as well fails: here the bundle is not the task it claims.
    await expect(fetchTask(blobs, { ...ref, checksum: "0".repeat(64) }, cache)).rejects.toBeInstanceOf(
      BlobError,
    );
  });
});
