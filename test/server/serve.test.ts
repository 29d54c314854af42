import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startViewer } from "../../src/server/index.js";
import { buildFixture, type Fixture } from "./fixtures.js";

describe("startViewer", () => {
  let fx: Fixture;

  beforeAll(async () => {
    fx = await buildFixture();
  });

  afterAll(() => {
    rmSync(dirname(fx.jobsDir), { recursive: true, force: true });
  });

  it("listens on 127.0.0.1 unless told otherwise and gives a URL that answers", async () => {
    const viewer = await startViewer({ jobsDir: fx.jobsDir, port: 0 });
    try {
      expect(viewer.url).toBe(`http://127.0.0.1:${viewer.port}/`);
      expect((await fetch(`${viewer.url}api/jobs`)).status).toBe(200);
    } finally {
      await viewer.close();
    }
  });

  it("gives a usable URL for an IPv6 address, in brackets", async () => {
    const viewer = await startViewer({ jobsDir: fx.jobsDir, port: 0, host: "::1" });
    try {
      expect(viewer.url).toBe(`http://[::1]:${viewer.port}/`);
      expect((await fetch(`${viewer.url}api/jobs`)).status).toBe(200);
    } finally {
      await viewer.close();
    }
  });
});
