import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorMessage } from "../core/index.js";
import {
  answerCapBytes,
  DEFAULT_CONTEXT_WINDOW,
  emptyTotals,
  findPrice,
  loadPricing,
  type ModelSettings,
  type PricingTable,
  parseSettings,
  type UsageTotals,
} from "../models/index.js";
import { BudgetGate } from "./budget.js";
import { sendError } from "./errors.js";
import { type GatewayState, handleModelCall } from "./exchange.js";
import { DEFAULT_RECORD_LIMITS, ExchangeRecorder, type RecorderLimits } from "./record.js";
import { routeOf } from "./routes.js";
import type { BudgetStop, GatewayBudget, GatewayEndpoint, GatewayFault } from "./types.js";
import { resolveUpstream } from "./upstream.js";

export interface GatewayOptions {
  /** The trial's `provider:model`; every call is sent upstream as this model. */
  modelId: string;
  /** Base URL, key and retry policy, as longhaul's model client would use them (`--agent-opt`). */
  settings?: ModelSettings;
  env?: NodeJS.ProcessEnv;
  pricing?: PricingTable;
  budget?: GatewayBudget;
  /** `<trial>/agent/gateway.jsonl`; null: nothing recorded. */
  recordPath?: string | null;
  recordLimits?: RecorderLimits;
  log?: (line: string) => void;
  /** Called once when calls start failing for reasons outside the agent (see GatewayFault). */
  onFault?: (f: GatewayFault) => void;
  /**
   * An empty folder of the caller's for the socket, kept on close (only the socket goes): a
   * sandbox that binds it for its whole life needs it to outlive the gateway (docker refuses to
   * copy into a container one of whose bind sources vanished). Default: a fresh folder of the
   * gateway's own, removed on close.
   */
  socketDir?: string;
}

/** A running gateway for one trial. */
export interface Gateway {
  readonly endpoint: GatewayEndpoint;
  /** The exchange record (JSONL), or null when none is kept. */
  readonly recordPath: string | null;
  /** Totals over the calls that reached the upstream and came back. */
  usage(): UsageTotals;
  /** Calls refused because the budget was spent. */
  refusedCalls(): number;
  budgetStop(): BudgetStop | null;
  fault(): GatewayFault | null;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Starts one trial's gateway: the same HTTP API on 127.0.0.1:<free port> and on a unix socket
 * in a fresh folder of its own (bindable into a sandbox). One server per trial, not one shared:
 * a trial's token, budget, usage and record file then belong to a single object whose lifetime is
 * the trial's, and closing it cuts every connection its agent still holds.
 */
export async function startGateway(o: GatewayOptions): Promise<Gateway> {
  const settings = o.settings ?? parseSettings({});
  const upstream = resolveUpstream(o.modelId, settings, o.env ?? process.env);
  const token = `lh-${randomBytes(24).toString("hex")}`;
  const price = findPrice(o.pricing ?? loadPricing(), o.modelId);
  const state: GatewayState = {
    modelId: o.modelId,
    upstream,
    price,
    // As longhaul's model client sizes the model (`context_window`, then the pricing table).
    contextWindow: settings.contextWindow ?? price?.context_window ?? DEFAULT_CONTEXT_WINDOW,
    gate: new BudgetGate(o.budget ?? {}),
    policy: { maxRetries: settings.maxRetries, baseMs: settings.retryBaseMs, maxMs: settings.retryMaxMs },
    timeoutMs: settings.timeoutSec * 1000,
    capBytes: answerCapBytes(settings.maxAnswerMib),
    totals: emptyTotals(),
    refusedCalls: 0,
    stop: null,
    fault: null,
    recorder:
      o.recordPath === undefined || o.recordPath === null
        ? null
        : new ExchangeRecorder(
            o.recordPath,
            [upstream.apiKey, token],
            o.recordLimits ?? DEFAULT_RECORD_LIMITS,
          ),
    closing: new AbortController(),
    log: o.log ?? (() => undefined),
    onFault: (f) => {
      if (!faulted) o.onFault?.(f);
      faulted = true;
    },
  };
  let faulted = false;
  const expected = Buffer.from(token);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    void handle(state, expected, req, res).catch((e: unknown) => {
      state.log(`gateway: ${errorMessage(e)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end();
    });
  };
  const ownDir = o.socketDir === undefined;
  const socketDir = o.socketDir ?? mkdtempSync(join(tmpdir(), "lhgw-"));
  // The folder is bound into sandboxes whose user may differ from ours; the token guards the API.
  chmodSync(socketDir, 0o755);
  const socketPath = join(socketDir, "gateway.sock");
  const sockets = new Set<Socket>();
  const servers = [createServer(handler), createServer(handler)] as const;
  for (const s of servers) {
    s.keepAliveTimeout = 60_000;
    s.on("connection", (c) => {
      sockets.add(c);
      c.on("close", () => sockets.delete(c));
    });
  }
  await listen(servers[0], (s, ok) => s.listen(0, "127.0.0.1", ok));
  await listen(servers[1], (s, ok) => s.listen(socketPath, ok));
  chmodSync(socketPath, 0o666);
  const port = (servers[0].address() as AddressInfo).port;
  let closed: Promise<void> | undefined;

  return {
    endpoint: {
      hostUrl: `http://127.0.0.1:${port}`,
      socketPath,
      token,
      provider: upstream.provider,
      model: upstream.model,
    },
    recordPath: state.recorder?.path ?? null,
    usage: () => state.totals,
    refusedCalls: () => state.refusedCalls,
    budgetStop: () => state.stop,
    fault: () => state.fault,
    close: () => {
      closed ??= (async () => {
        state.closing.abort(new Error("gateway closed"));
        for (const c of sockets) c.destroy();
        await Promise.all(servers.map((s) => new Promise<void>((ok) => s.close(() => ok()))));
        await state.recorder?.close();
        rmSync(ownDir ? socketDir : socketPath, { recursive: true, force: true });
      })();
      return closed;
    },
  };
}

function listen(s: Server, start: (s: Server, ok: () => void) => void): Promise<void> {
  return new Promise((ok, fail) => {
    s.once("error", fail);
    start(s, () => {
      s.off("error", fail);
      ok();
    });
  });
}

function authorized(req: IncomingMessage, expected: Buffer): boolean {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
  const key = req.headers["x-api-key"];
  const given = bearer ?? (typeof key === "string" ? key : undefined);
  if (given === undefined) return false;
  const b = Buffer.from(given.trim());
  return b.length === expected.length && timingSafeEqual(b, expected);
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function handle(
  s: GatewayState,
  expected: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const route = routeOf(req);
  if (route.kind === "health") {
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    return;
  }
  if (!authorized(req, expected)) {
    req.resume();
    sendError(res, route.api, "auth", "invalid API key: present this trial's gateway token");
    return;
  }
  if (route.kind === "models") {
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify(route.render(s.upstream.model)));
    return;
  }
  if (route.kind === "not_found") {
    req.resume();
    sendError(res, route.api, "not_found", `no such endpoint: ${req.method} ${req.url}`);
    return;
  }
  const bodyText = await readBody(req);
  if (bodyText === null) {
    sendError(res, route.api, "too_large", `request body over ${MAX_BODY_BYTES} bytes`);
    return;
  }
  if (route.kind === "count_tokens") {
    await route.handle(s, req, res, bodyText);
    return;
  }
  await handleModelCall(s, { api: route.api, path: route.upstreamPath, req, res, bodyText });
}
