import type { IncomingMessage, ServerResponse } from "node:http";
import { countTokens } from "./count-tokens.js";
import type { GatewayState } from "./exchange.js";
import type { GatewayApi } from "./types.js";

export type Route =
  | { kind: "health"; api: GatewayApi }
  | { kind: "models"; api: GatewayApi; render: (model: string) => unknown }
  | { kind: "call"; api: GatewayApi; upstreamPath: string }
  | {
      kind: "count_tokens";
      api: GatewayApi;
      handle: (s: GatewayState, req: IncomingMessage, res: ServerResponse, body: string) => Promise<void>;
    }
  | { kind: "not_found"; api: GatewayApi };

const CALLS: Record<string, GatewayApi> = {
  "/chat/completions": "chat",
  "/responses": "responses",
  "/messages": "messages",
};

/**
 * Paths are accepted with or without the `/v1` prefix (clients differ in whether their base URL
 * carries it) and forwarded below the upstream's base URL, which carries it.
 */
export function routeOf(req: IncomingMessage): Route {
  const url = new URL(req.url ?? "/", "http://gateway");
  const path = url.pathname.replace(/\/+$/, "").replace(/^\/v1(?=\/|$)/, "") || "/";
  // Errors for unknown paths follow the client's dialect: Anthropic clients send anthropic-version.
  const dialect: GatewayApi = req.headers["anthropic-version"] !== undefined ? "messages" : "chat";
  if (req.method === "GET" && (path === "/" || path === "/health")) return { kind: "health", api: dialect };
  if (req.method === "GET" && (path === "/models" || path.startsWith("/models/")))
    return {
      kind: "models",
      api: dialect,
      render: (m) => (path === "/models" ? modelList(m) : modelEntry(m)),
    };
  if (req.method === "POST" && path === "/messages/count_tokens")
    return { kind: "count_tokens", api: "messages", handle: countTokens };
  const api = CALLS[path];
  if (req.method === "POST" && api !== undefined) return { kind: "call", api, upstreamPath: path };
  return { kind: "not_found", api: api ?? dialect };
}

// One shape read by both OpenAI clients (object/owned_by) and Anthropic ones (type/display_name).
function modelEntry(model: string): Record<string, unknown> {
  return {
    id: model,
    object: "model",
    type: "model",
    created: 0,
    created_at: "1970-01-01T00:00:00Z",
    owned_by: "longhaul",
    display_name: model,
  };
}

function modelList(model: string): unknown {
  return { object: "list", data: [modelEntry(model)], has_more: false, first_id: model, last_id: model };
}
