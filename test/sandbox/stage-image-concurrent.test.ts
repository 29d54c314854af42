import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cachedImage, stageImage } from "../../src/sandbox/image/cache-dir.js";
import type { ImageRef } from "../../src/sandbox/image/types.js";
import { tempDir } from "../runner/helpers.js";

const image: ImageRef = {
  id: `sha256:${"ab".repeat(32)}`,
  tag: null,
  config: { workdir: "/app", env: {}, user: null },
};

describe("staging one image twice at once in one process", () => {
  beforeEach(() => {
    vi.stubEnv("LONGHAUL_CACHE_DIR", tempDir("stage-image"));
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("gives each staging a folder of its own, and both end with the complete image", async () => {
    // The same millisecond for both, as two trials side by side can meet.
    vi.spyOn(Date, "now").mockReturnValue(1_700_000_000_000);
    const seen: string[] = [];
    const fill = (label: string) => async (rootfs: string) => {
      seen.push(rootfs);
      writeFileSync(join(rootfs, "who"), label);
      await new Promise((r) => setTimeout(r, 50));
      // The other staging must not have written into (or removed) this one's folder meanwhile.
      expect(readFileSync(join(rootfs, "who"), "utf8")).toBe(label);
    };
    const [a, b] = await Promise.all([
      stageImage(image, "test", fill("a")),
      stageImage(image, "test", fill("b")),
    ]);
    expect(new Set(seen).size).toBe(2);
    expect(a).toBe(b);
    expect(cachedImage(image.id)?.source).toBe("test");
    expect(["a", "b"]).toContain(readFileSync(join(a, "who"), "utf8"));
  });
});
