import { describe, expect, it } from "vitest";
import { UserError } from "../core/errors.js";
import {
  DEFAULT_SANDBOX_PROVIDER,
  getSandboxProvider,
  listSandboxProviders,
  registerSandboxProvider,
} from "./registry.js";
import type { SandboxProvider } from "./types.js";

describe("sandbox registry", () => {
  it("has bwrap as the default provider", () => {
    expect(DEFAULT_SANDBOX_PROVIDER).toBe("bwrap");
    expect(getSandboxProvider().name).toBe("bwrap");
    expect(listSandboxProviders()).toContain("bwrap");
  });

  it("names the known providers when asked for an unknown one", () => {
    const fake: SandboxProvider = {
      name: "fake-test",
      check: async () => undefined,
      create: async () => {
        throw new Error("not used");
      },
    };
    registerSandboxProvider("fake-test", () => fake);
    expect(getSandboxProvider("fake-test")).toBe(fake);
    let caught: unknown;
    try {
      getSandboxProvider("dockr");
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect((caught as Error).message).toBe(
      'unknown sandbox provider "dockr" (known: bwrap, docker, fake-test)',
    );
    expect(() => registerSandboxProvider("Bad Name", () => fake)).toThrow(UserError);
  });
});
