import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { type LoopbackLlm, startLoopbackLlm } from "./loopback-llm.js";

/**
 * One loopback model server for the calling file: started before its first test, closed after
 * its last, and reset (with every spy restored) after each test so tests stay independent. The
 * object returned stands for the server; it may be used only inside hooks and tests.
 */
export function useLoopbackLlm(): LoopbackLlm {
  let server: LoopbackLlm | undefined;
  const get = (): LoopbackLlm => {
    if (server === undefined)
      throw new Error("the loopback model server is not started yet (use it inside a test)");
    return server;
  };
  beforeAll(async () => {
    server = await startLoopbackLlm();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    server?.reset();
    vi.restoreAllMocks();
  });
  return {
    get url() {
      return get().url;
    },
    get requests() {
      return get().requests;
    },
    push: (...replies) => get().push(...replies),
    setFallback: (r) => get().setFallback(r),
    pending: () => get().pending(),
    reset: () => get().reset(),
    close: () => get().close(),
  };
}
