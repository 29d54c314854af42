import type { IncomingMessage, ServerResponse } from "node:http";
import { capAnswer } from "../models/index.js";
import type { GatewayState } from "./exchange.js";
import { upstreamHeaders } from "./forward.js";

/**
 * Anthropic's `messages/count_tokens`, which agents call to size their context: forwarded once
 * (it is free and neither counted nor budgeted); an upstream without it gets an estimate of four
 * characters a token, so the agent goes on.
 */
export async function countTokens(
  s: GatewayState,
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
): Promise<void> {
  let sent = body;
  try {
    sent = JSON.stringify({ ...(JSON.parse(body) as Record<string, unknown>), model: s.upstream.model });
  } catch {
    // Relayed as it is; the upstream says what is wrong with it.
  }
  try {
    const url = `${s.upstream.baseUrl}/messages/count_tokens`;
    // Capped like any answer: one past the cap is estimated below, as for an unreachable upstream.
    const up = capAnswer(
      await fetch(url, {
        method: "POST",
        headers: upstreamHeaders("count_tokens", req.headers, s.upstream),
        body: sent,
        signal: AbortSignal.any([s.closing.signal, AbortSignal.timeout(30_000)]),
      }),
      url,
      s.capBytes,
    );
    if (up.status !== 404 && up.status !== 405) {
      const text = await up.text();
      res
        .writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" })
        .end(text);
      return;
    }
  } catch {
    // Unreachable: estimated below.
  }
  const estimate = Math.ceil(body.length / 4);
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ input_tokens: estimate }));
}
