import { PNG } from "pngjs";
import { utf8 } from "../../src/scale/file-tree.js";
import { buildSqlite } from "../../src/scale/transforms/resource/sqlite-file.js";
import type { FileTree } from "../../src/scale/types.js";

/** A small PNG whose pixels depend on position, so no rotation or flip maps it onto itself. */
export function samplePng(width: number, height: number, colorType: 2 | 6, salt: number): Uint8Array {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      png.data[i] = (x * 40 + salt) % 256;
      png.data[i + 1] = (y * 60 + 3 * salt) % 256;
      png.data[i + 2] = (x * y * 17 + 5) % 256;
      png.data[i + 3] = colorType === 6 ? 255 - ((x + 2 * y) % 7) * 20 : 255;
    }
  }
  return new Uint8Array(PNG.sync.write(png, { colorType, inputHasAlpha: true }));
}

const t = utf8.encode;

function shop(): FileTree {
  const orders = [
    "id,customer,region,amount,note",
    '1,"Smith, John",north,12.50,"first order, paid by card"',
    '2,Ana Lopez,south,7.00,"said ""rush it"" on the phone"',
    '3,"Wu, Mei",north,99.99,"two-line note:\nleave at the back door"',
    "4,Ola Nordmann,east,0.00,",
    '5,"Brown, ""Bo""",south,45.10,refund pending review',
  ].join("\n");
  const config = {
    service: { name: "shop-api", port: 8080, replicas: 3 },
    features: ["search", "checkout"],
    limits: { perMinute: 600, burst: 50 },
  };
  const events = [
    { ts: 1700000000, level: "info", msg: "service started on port 8080", code: 0 },
    { ts: 1700000042, level: "warn", msg: "slow query on orders table", code: 17 },
    { ts: 1700000100, level: "error", msg: "payment gateway timed out", code: 504 },
  ];
  const db = buildSqlite((d) => {
    d.exec("CREATE TABLE items (sku TEXT PRIMARY KEY, qty INTEGER NOT NULL, price REAL)");
    d.exec("CREATE TABLE suppliers (id INTEGER PRIMARY KEY, name TEXT)");
    const ins = d.prepare("INSERT INTO items VALUES (?, ?, ?)");
    ins.run("A-100", 12, 3.5);
    ins.run("B-220", 0, 19.99);
    ins.run("C-310", 140, null);
    d.prepare("INSERT INTO suppliers VALUES (?, ?)").run(1, "Northwind Traders");
  });
  return new Map([
    ["data/orders.csv", t(`${orders}\n`)],
    ["config/app.json", t(`${JSON.stringify(config, null, 2)}\n`)],
    ["logs/events.jsonl", t(`${events.map((e) => JSON.stringify(e)).join("\n")}\n`)],
    [
      "README.md",
      t("# Shop\n\nThe shop service keeps orders in data/orders.csv.\nInventory lives in a database.\n"),
    ],
    ["db/inventory.sqlite", db],
    ["assets/logo.png", samplePng(6, 4, 6, 1)],
  ]);
}

function research(): FileTree {
  const measurements = [
    "site,day,value,comment",
    "A,1,0.25,baseline",
    'B,1,0.31,"windy, some drift"',
    "A,2,0.27,",
    'B,2,0.40,"sensor ""B2"" replaced"',
    "A,3,0.22,calm",
  ].join("\r\n");
  const samples = [
    { site: "A", depth: 1.5, ok: true, tags: ["soil"] },
    { site: "B", depth: 2, ok: false, tags: [] },
    { site: "A", depth: 0.75, ok: true, tags: ["clay", "wet"] },
    { site: "C", depth: 3.25, ok: null, tags: ["rock"] },
  ];
  return new Map([
    [
      "notes/2024/q1/summary.md",
      t("# Q1 summary\n\nThe café survey – résumé of findings.\nSite B drifted in week 2.\n"),
    ],
    ["notes/read me.txt", t("A naïve first pass over the data.\nSee the measurements table.\n")],
    ["data/measurements.csv", t(`${measurements}\r\n`)],
    ["data/samples.jsonl", t(`${samples.map((s) => JSON.stringify(s)).join("\n")}\n`)],
    ["img/chart.png", samplePng(5, 3, 2, 7)],
    ["settings.json", t('{"units":"metric","precision":3,"sites":{"A":"north field","B":"creek"}}')],
  ]);
}

function ops(): FileTree {
  const db = buildSqlite((d) => {
    d.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT UNIQUE, avatar BLOB)");
    d.exec("CREATE TABLE sessions (token TEXT, user_id INTEGER, expires INTEGER)");
    const u = d.prepare("INSERT INTO users VALUES (?, ?, ?)");
    u.run(1, "root@example.org", Buffer.from([0, 1, 2, 250]));
    u.run(2, "ops@example.org", null);
    d.prepare("INSERT INTO sessions VALUES (?, ?, ?)").run("tok-7781", 1, 1735689600);
  });
  const access = [
    { ip: "10.0.0.5", method: "GET", path: "/health", status: "200" },
    { ip: "10.0.0.9", method: "POST", path: "/login", status: "401" },
    { ip: "10.0.0.5", method: "GET", path: "/orders?page=2", status: "200" },
  ];
  const users = [
    "name,email,team,notes",
    "Zoë Ångström,zoe@example.org,infra,",
    'Kenji Sato,kenji@example.org,infra,"on call, weekends"',
    'Lars Ek,lars@example.org,data,""',
  ].join("\n");
  const bin = new Uint8Array(64);
  for (let i = 0; i < bin.length; i++) bin[i] = (i * 97 + 200) % 256;
  return new Map([
    ["app/db/app.db", db],
    ["app/config/service.json", t('{"listen":"0.0.0.0:9000","workers":4,"tls":{"enabled":false}}\n')],
    ["var/log/access.jsonl", t(`${access.map((a) => JSON.stringify(a)).join("\n")}\n`)],
    [
      "docs/guide.md",
      t("# Operator guide\n\n1. Rotate the session tokens weekly.\n2. Keep the database backed up.\n"),
    ],
    ["bin/tool.bin", bin],
    ["exports/users.csv", t(`${users}\n`)],
    ["exports/empty.txt", new Uint8Array(0)],
  ]);
}

/**
 * Three small environments covering the kinds of resource the transforms handle: quoted CSV,
 * JSON, JSONL, text, SQLite, PNG, binary, an empty file, a name with a space, nested folders.
 */
export function sampleEnvironments(): FileTree[] {
  return [shop(), research(), ops()];
}
