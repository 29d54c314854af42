import { describe, expect, it } from "vitest";
import { type ContainerFacts, ContainerFactsCache, parseFacts } from "./container-facts.js";

const running: ContainerFacts = { id: "abc", pid: 42, upperDir: "/u", mergedDir: "/m" };

describe("container facts", () => {
  it("reads id, pid and the overlay folders, and none under a driver without them", () => {
    expect(parseFacts('["abc",42,{"UpperDir":"/u","MergedDir":"/m","WorkDir":"/w"}]\n')).toEqual(running);
    expect(parseFacts('["abc",0,null]')).toEqual({ id: "abc", pid: 0, upperDir: "", mergedDir: "" });
    // A folder name holding a tab or a newline stays one field.
    expect(parseFacts('["abc",7,{"UpperDir":"/a\\tb\\nc"}]')?.upperDir).toBe("/a\tb\nc");
    for (const bad of ["", "<no value>", '["abc","42",null]', '{"Id":"abc"}', '["abc",1.5,null]'])
      expect(parseFacts(bad)).toBeNull();
  });

  it("asks once while the container runs, and again after a failure or while it is not running", async () => {
    const answers: (ContainerFacts | null | Error)[] = [
      null,
      new Error("no daemon"),
      { ...running, pid: 0 },
      running,
      { ...running, pid: 99 },
    ];
    let asked = 0;
    const cache = new ContainerFactsCache("c", async () => {
      const a = answers[asked++];
      if (a instanceof Error) throw a;
      return a ?? null;
    });
    expect(await cache.get()).toBeNull();
    await expect(cache.get()).rejects.toThrow("no daemon");
    expect((await cache.get())?.pid).toBe(0);
    expect(await cache.get()).toEqual(running);
    // Kept: the init pid of a running container does not change.
    expect(await Promise.all([cache.get(), cache.get()])).toEqual([running, running]);
    expect(asked).toBe(4);
  });
});
