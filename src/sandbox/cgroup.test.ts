import { describe, expect, it } from "vitest";
import { ownCgroups } from "./cgroup.js";

describe("ownCgroups", () => {
  it("maps every v1 controller, co-mounted ones included, to the process's path", () => {
    const text = [
      "9:name=systemd:/",
      "8:pids:/",
      "4:memory:/jobs/abc",
      "2:cpu,cpuacct:/jobs/abc",
      "0::/user.slice",
      "",
    ].join("\n");
    const m = ownCgroups(text);
    expect(m.get("pids")).toBe("/");
    expect(m.get("memory")).toBe("/jobs/abc");
    expect(m.get("cpu")).toBe("/jobs/abc");
    expect(m.get("cpuacct")).toBe("/jobs/abc");
    expect(m.has("")).toBe(false);
    expect(m.get("name=systemd")).toBe("/");
  });
});
