import { z } from "zod";

const Item = z.looseObject({ type: z.string(), id: z.string().optional() });

const ResponseBody = z.looseObject({
  id: z.string(),
  object: z.literal("response"),
  status: z.string().optional(),
  output: z.array(Item),
});

const Part = z.looseObject({ type: z.string(), text: z.string().optional() });

// The event that ends a stream, by the response's status; a status the API does not end with
// (a whole answer is never still in progress) counts as completed.
const TERMINAL: Record<string, string> = {
  incomplete: "response.incomplete",
  failed: "response.failed",
};

/**
 * The Responses API's events for a whole response object: response.created, each output item as
 * added, its text or arguments as one delta, done, then response.completed (or .incomplete or
 * .failed) with the whole response, whose usage readers take from there. Null when `v` is not a
 * response object.
 */
export function wholeResponseToSse(v: unknown): string | null {
  const r = ResponseBody.safeParse(v);
  if (!r.success) return null;
  const body = r.data;
  let seq = 0;
  let out = "";
  const push = (type: string, data: Record<string, unknown>): void => {
    out += `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  };
  const pending = { ...body, status: "in_progress", output: [], usage: null };
  push("response.created", { response: pending });
  push("response.in_progress", { response: pending });
  body.output.forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === "message" && Array.isArray(item.content)) {
      push("response.output_item.added", {
        output_index,
        item: { ...item, status: "in_progress", content: [] },
      });
      item.content.forEach((p: unknown, content_index) => {
        const part = Part.safeParse(p);
        const at = { item_id, output_index, content_index };
        if (!part.success) return;
        if (part.data.type === "output_text" && part.data.text !== undefined) {
          const { text } = part.data;
          push("response.content_part.added", { ...at, part: { ...part.data, text: "" } });
          push("response.output_text.delta", { ...at, delta: text, logprobs: [] });
          push("response.output_text.done", { ...at, text, logprobs: [] });
        } else {
          push("response.content_part.added", { ...at, part: part.data });
        }
        push("response.content_part.done", { ...at, part: part.data });
      });
    } else if (item.type === "function_call" && typeof item.arguments === "string") {
      push("response.output_item.added", {
        output_index,
        item: { ...item, arguments: "", status: "in_progress" },
      });
      push("response.function_call_arguments.delta", { item_id, output_index, delta: item.arguments });
      push("response.function_call_arguments.done", { item_id, output_index, arguments: item.arguments });
    } else {
      // Reasoning and other items are sent whole: readers take them from output_item.done.
      push("response.output_item.added", { output_index, item });
    }
    push("response.output_item.done", { output_index, item });
  });
  push(TERMINAL[body.status ?? ""] ?? "response.completed", { response: body });
  return out;
}
