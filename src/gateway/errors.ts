import type { ServerResponse } from "node:http";
import type { GatewayApi } from "./types.js";

/** What the gateway itself answers with; each is rendered in the API's own error format. */
export type GatewayErrorKind = "auth" | "budget" | "bad_request" | "not_found" | "too_large" | "upstream";

const ANTHROPIC_TYPE: Record<GatewayErrorKind, string> = {
  auth: "authentication_error",
  // Anthropic answers a spent credit balance with 400 invalid_request_error; so does the gateway.
  budget: "invalid_request_error",
  bad_request: "invalid_request_error",
  not_found: "not_found_error",
  too_large: "request_too_large",
  upstream: "api_error",
};

const OPENAI_TYPE: Record<GatewayErrorKind, { type: string; code: string | null }> = {
  auth: { type: "invalid_request_error", code: "invalid_api_key" },
  budget: { type: "insufficient_quota", code: "budget_exceeded" },
  bad_request: { type: "invalid_request_error", code: null },
  not_found: { type: "invalid_request_error", code: "not_found" },
  too_large: { type: "invalid_request_error", code: "request_too_large" },
  upstream: { type: "server_error", code: null },
};

export const ERROR_STATUS: Record<GatewayErrorKind, number> = {
  auth: 401,
  // 400, not 429 or 402: no client SDK retries a 400, so a refused call ends the agent's turn at
  // once instead of being retried against a budget that will not grow.
  budget: 400,
  bad_request: 400,
  not_found: 404,
  too_large: 413,
  upstream: 502,
};

export function errorBody(api: GatewayApi, kind: GatewayErrorKind, message: string): unknown {
  if (api === "messages") return { type: "error", error: { type: ANTHROPIC_TYPE[kind], message } };
  return { error: { message, ...OPENAI_TYPE[kind], param: null } };
}

export function sendError(
  res: ServerResponse,
  api: GatewayApi,
  kind: GatewayErrorKind,
  message: string,
): string {
  const body = JSON.stringify(errorBody(api, kind, message));
  if (!res.headersSent)
    res.writeHead(ERROR_STATUS[kind], {
      "content-type": "application/json",
      // Stainless-generated SDKs (OpenAI's, Anthropic's) honour this and never retry the call.
      ...(kind === "budget" || kind === "auth" ? { "x-should-retry": "false" } : {}),
    });
  res.end(body);
  return body;
}
