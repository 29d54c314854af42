import { describe, expect, it } from "vitest";
import { bwrapArgs, LAUNCHER_SCRIPT } from "./bwrap-args.js";

const binds = [
  { sandboxRoot: "/app", hostRoot: "/s/app" },
  { sandboxRoot: "/logs", hostRoot: "/s/logs" },
];

/** The [flag, a, b] triples of every bind in argv order. */
function bindsOf(args: string[]): string[][] {
  const out: string[][] = [];
  args.forEach((a, i) => {
    if (a === "--bind" || a === "--ro-bind") out.push([a, args[i + 1] ?? "", args[i + 2] ?? ""]);
  });
  return out;
}

describe("bwrapArgs", () => {
  it("drops every capability, unshares everything and shares the network only when allowed", () => {
    const off = bwrapArgs("/usr/bin/bwrap", { binds, allowInternet: false }, [], "/app", ["true"]);
    expect(off[0]).toBe("/usr/bin/bwrap");
    expect(off.join(" ")).toContain("--cap-drop ALL");
    expect(off).toContain("--unshare-all");
    expect(off).toContain("--die-with-parent");
    expect(off).not.toContain("--share-net");
    const on = bwrapArgs("bwrap", { binds, allowInternet: true }, [], "/app", ["true"]);
    expect(on).toContain("--share-net");
    expect(on.indexOf("--share-net")).toBeGreaterThan(on.indexOf("--unshare-all"));
  });

  it("binds parents before nested mounts and remounts the root read-only after all of them", () => {
    const args = bwrapArgs(
      "bwrap",
      { binds, allowInternet: false },
      [
        { hostPath: "/h/tests", sandboxPath: "/app/tests", readonly: true },
        { hostPath: "/h/kit", sandboxPath: "/k", readonly: true },
      ],
      "/app",
      ["true"],
    );
    const mounts = bindsOf(args);
    expect(mounts).toEqual([
      ["--bind", "/s/app", "/app"],
      ["--bind", "/s/logs", "/logs"],
      ["--ro-bind", "/h/kit", "/k"],
      ["--ro-bind", "/h/tests", "/app/tests"],
    ]);
    const lastBind = args.lastIndexOf("/app/tests");
    expect(args.indexOf("--remount-ro")).toBeGreaterThan(lastBind);
  });

  it("ends with the launcher, the working folder and the command verbatim", () => {
    const args = bwrapArgs("bwrap", { binds, allowInternet: false }, [], "/tmp", ["printf", "%s", "a b"]);
    const tail = args.slice(args.indexOf("--") + 1);
    expect(tail).toEqual(["/bin/sh", "-c", LAUNCHER_SCRIPT, "sh", "/tmp", "printf", "%s", "a b"]);
  });
});

describe("bwrapArgs over an image", () => {
  const image = { merged: "/s/root/merged", uid: 0, gid: 0, groups: [], userns: true, kit: null };
  const layout = {
    binds: [...binds, { sandboxRoot: "/", hostRoot: "/s/root/merged" }],
    allowInternet: false,
  };

  it("binds the merged root writable as / once, joins the user namespace and never remounts / read-only", () => {
    const args = bwrapArgs("bwrap", { ...layout, image }, [], "/app", ["true"]);
    expect(args.slice(0, 4)).toEqual(["bwrap", "--bind", "/s/root/merged", "/"]);
    expect(bindsOf(args).filter((b) => b[2] === "/")).toHaveLength(1);
    expect(args).not.toContain("--remount-ro");
    expect(args.join(" ")).toContain("--userns 4");
    expect(args).toContain("--unshare-net");
    expect(args.join(" ")).not.toContain("/usr /usr");
  });

  it("binds a fresh folder's image copy for the exec, and drops to a non-root user through the kit", () => {
    const kit = {
      files: [{ host: "/usr/bin/setpriv", name: "setpriv" }],
      dir: "/run/k",
      argv: ["/run/k/setpriv"],
    };
    const args = bwrapArgs(
      "bwrap",
      { ...layout, image: { ...image, uid: 1234, gid: 99, kit } },
      [],
      "/w",
      ["id"],
      {
        freshDirs: ["/root"],
        freshSources: { "/root": "/s/fresh/0" },
      },
    );
    expect(bindsOf(args)).toContainEqual(["--bind", "/s/fresh/0", "/root"]);
    expect(bindsOf(args)).toContainEqual(["--ro-bind", "/usr/bin/setpriv", "/run/k/setpriv"]);
    const tail = args.slice(args.indexOf("--") + 1);
    expect(tail.slice(4)).toEqual([
      "/w",
      "/run/k/setpriv",
      "--reuid=1234",
      "--regid=99",
      "--clear-groups",
      "--inh-caps=-all",
      "--",
      "id",
    ]);
    expect(() => bwrapArgs("bwrap", { ...layout, image: { ...image, uid: 5 } }, [], "/w", ["id"])).toThrow(
      /setpriv/,
    );
  });
});
