import { describe, expect, it } from "vitest";
import { redactUrl } from "../../src/distributed/redis-url.js";

describe("redactUrl", () => {
  it("masks the password wherever ioredis would read one, and keeps the rest of the URL", () => {
    expect(redactUrl("redis://:s3cret@queue-host:6379/0")).toBe("redis://:***@queue-host:6379/0");
    expect(redactUrl("rediss://user:s3cret@Queue.Host:6380/2")).toBe("rediss://user:***@Queue.Host:6380/2");
    // An `@` inside the password: URL parsing ends the user part at the last one.
    expect(redactUrl("redis://:s3c@ret@queue-host:6379")).toBe("redis://:***@queue-host:6379");
    // A password given as a query parameter.
    expect(redactUrl("redis://queue-host:6379/1?password=s3cret&family=6")).toBe(
      "redis://queue-host:6379/1?password=***&family=6",
    );
    // Unparseable (bad port): masked by its shape.
    expect(redactUrl("redis://:s3c@ret@queue-host:99999")).toBe("redis://:***@queue-host:99999");
    // Nothing to mask: left exactly as written.
    for (const url of ["redis://queue-host:6379", "redis://user@queue-host:6379/0", "redis://[::1]:6379"])
      expect(redactUrl(url)).toBe(url);
  });
});
