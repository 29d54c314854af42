import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { splitDockerfileTail } from "../../../src/sandbox/image/dockerfile-tail.js";
import { tailTakes } from "../../../src/sandbox/image/tail-rootfs.js";

const df = (...lines: string[]) => `${lines.join("\n")}\n`;

describe("splitDockerfileTail", () => {
  it("splits after the last RUN: the head byte for byte, the paths the tail writes", () => {
    const text = df(
      "FROM longhaul-base:bookworm",
      "RUN apt-get update && apt-get install -y python3-pytest \\",
      "    && rm -rf /var/lib/apt/lists/*",
      "",
      "WORKDIR /app",
      "COPY sales.csv report.py /app/",
      "ENV REPORT_CURRENCY=EUR",
    );
    expect(splitDockerfileTail(text)).toEqual({
      head: df(
        "FROM longhaul-base:bookworm",
        "RUN apt-get update && apt-get install -y python3-pytest \\",
        "    && rm -rf /var/lib/apt/lists/*",
        "",
      ),
      paths: ["/app"],
    });
  });

  it("resolves relative destinations and WORKDIRs against the WORKDIR before them", () => {
    const text = df(
      "FROM base AS build",
      "RUN make",
      "FROM base",
      "WORKDIR /srv",
      "RUN true",
      "COPY --chown=10:10 a.txt rel/a.txt",
      "WORKDIR sub",
      "# a comment between instructions",
      'COPY ["b c.txt", "d.txt", "./"]',
      "COPY --link --chmod=0644 data/ /opt/data/",
      "USER nobody",
    );
    expect(splitDockerfileTail(text)?.paths).toEqual(["/srv/rel/a.txt", "/srv/sub", "/opt/data"]);
    expect(splitDockerfileTail(text)?.head).toBe(
      df("FROM base AS build", "RUN make", "FROM base", "WORKDIR /srv", "RUN true"),
    );
  });

  const none: [string, string][] = [
    ["ends with a RUN", df("FROM base", "COPY a /a", "RUN true")],
    ["a tail without COPY", df("FROM base", "RUN true", "ENV A=1", "WORKDIR /x")],
    ["COPY --from", df("FROM base", "RUN true", "COPY --from=build /out /app/out")],
    ["an unknown COPY flag", df("FROM base", "RUN true", "COPY --parents a/b /app/")],
    ["ADD (may fetch or unpack)", df("FROM base", "RUN true", "COPY a /a", "ADD x.tar /x")],
    ["a variable", df("FROM base", "RUN true", "ARG D=/app", "COPY a $D/")],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Dockerfile variable, not a JS template.
    ["a variable in the tail", df("FROM base", "RUN true", "COPY a ${HOME}/")],
    ["a heredoc", df("FROM base", "RUN true", "COPY <<EOF /app/x", "hi", "EOF")],
    ["a relative path with no WORKDIR", df("FROM base", "RUN true", "COPY a.txt a.txt")],
    ["a relative first WORKDIR", df("FROM base", "RUN true", "WORKDIR app", "COPY a /a")],
    ["a parser directive", df("# syntax=docker/dockerfile:1", "FROM base", "RUN true", "COPY a /a")],
    ["no head at all", df("COPY a /a")],
  ];
  for (const [what, text] of none) {
    it(`has no tail with ${what}`, () => expect(splitDockerfileTail(text)).toBeNull());
  }
});

describe("tailTakes", () => {
  const head = mkdtempSync(join(tmpdir(), "longhaul-tail-head-"));
  mkdirSync(join(head, "app", "data"), { recursive: true });
  mkdirSync(join(head, "srv", "real"), { recursive: true });
  symlinkSync("real", join(head, "srv", "link"));
  writeFileSync(join(head, "app", "file"), "x");
  afterAll(() => rmSync(head, { recursive: true, force: true }));

  it("takes the highest folder the head lacks, else the path; none inside another", () => {
    expect(tailTakes(head, ["/app/data/x.csv", "/opt/new/deep/b.sh", "/opt/new/other", "/app"])).toEqual([
      "/app",
      "/opt",
    ]);
    expect(tailTakes(head, ["/app/data/x.csv", "/app/file"])).toEqual(["/app/data/x.csv", "/app/file"]);
  });

  it("refuses a path through a symbolic link or a file, and what docker writes into containers", () => {
    expect(tailTakes(head, ["/srv/link/x"])).toBeNull();
    expect(tailTakes(head, ["/app/file/x"])).toBeNull();
    expect(tailTakes(head, ["/etc/app.conf"])).toBeNull();
    expect(tailTakes(head, ["/"])).toBeNull();
  });
});
