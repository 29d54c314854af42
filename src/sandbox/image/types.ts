/**
 * Container images as sandboxes see them. An image is known by its content id (docker's
 * `sha256:…` image id, or the config digest of a `docker save`/OCI archive) and carries the
 * parts of its config a trial needs: where commands start, their environment, and the user.
 */
export interface ImageConfig {
  /** The image's WORKDIR, or null when it sets none. */
  workdir: string | null;
  /** The image's ENV, in order (later entries win). */
  env: Record<string, string>;
  /** The image's USER (`name`, `uid` or `uid:gid`), or null for root. */
  user: string | null;
}

export interface ImageRef {
  /** Content id, `sha256:<64 hex>`: the cache key of everything derived from the image. */
  id: string;
  /** A tag naming it in the local Docker daemon (e.g. `longhaul-env:<checksum>`), or null. */
  tag: string | null;
  config: ImageConfig;
}
