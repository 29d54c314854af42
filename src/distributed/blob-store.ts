import type { Redis } from "ioredis";
import { InfraError } from "../core/index.js";
import { sha256 } from "./pack.js";

/** Key of a blob: its sha256, so the same bytes are stored once however often they are sent. */
export function blobKey(digest: string): string {
  return `longhaul:blob:${digest}`;
}

/** Task bundles outlive a job by a week (a resumed job reuses them); results by a day. */
export const TASK_BLOB_TTL_SEC = 7 * 24 * 3600;
export const RESULT_BLOB_TTL_SEC = 24 * 3600;

/** A blob that is absent, or whose bytes do not hash to its name. Retrying cannot fix it. */
export class BlobError extends InfraError {
  constructor(message: string) {
    super(message, { retryable: false });
  }
}

/** Content-addressed blobs in Redis, verified on every read. */
export class BlobStore {
  constructor(private readonly redis: Redis) {}

  async put(bytes: Buffer, ttlSec: number): Promise<string> {
    const digest = sha256(bytes);
    const key = blobKey(digest);
    // Always written, never kept: a stored value under this name whose bytes were damaged would
    // otherwise stay refused until it expired. Same digest, same bytes, so overwriting is safe.
    await this.redis.set(key, bytes, "EX", ttlSec);
    return digest;
  }

  /**
   * A blob's bytes. With `maxBytes`, its length is asked first and a larger blob is refused
   * without being fetched: a result pack is held whole in memory to be checked and unpacked.
   */
  async get(digest: string, maxBytes?: number): Promise<Buffer> {
    if (!/^[0-9a-f]{64}$/.test(digest)) throw new BlobError(`blob ${digest}: not a sha256 digest`);
    if (maxBytes !== undefined) {
      const size = await this.redis.strlen(blobKey(digest));
      if (size > maxBytes)
        throw new BlobError(
          `blob ${digest.slice(0, 12)} holds ${size} bytes, more than the ${maxBytes}-byte cap on a result pack (--max-result-mib); refused`,
        );
    }
    const bytes = await this.redis.getBuffer(blobKey(digest));
    if (bytes === null) throw new BlobError(`blob ${digest.slice(0, 12)} is missing from Redis`);
    const actual = sha256(bytes);
    if (actual !== digest) {
      throw new BlobError(
        `blob ${digest.slice(0, 12)} is damaged: its bytes hash to ${actual.slice(0, 12)}; refused`,
      );
    }
    return bytes;
  }

  async delete(digest: string): Promise<void> {
    await this.redis.del(blobKey(digest));
  }
}
