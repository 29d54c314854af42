import type { Tool } from "ai";

/**
 * A tool offered to a model, declared without `execute` (the caller runs each call itself) and
 * checked against the SDK's `Tool` type. The SDK's own `tool()` helper only returns its argument,
 * but importing it loads the whole SDK (about 0.2 s of CPU) into processes that never call a model.
 */
export function toolSpec<INPUT>(spec: Tool<INPUT, never>): Tool<INPUT, never> {
  return spec;
}
