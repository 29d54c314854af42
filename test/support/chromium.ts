import { type Browser, chromium } from "playwright-core";

/**
 * Debian's Chromium, headless, as root, with every background connection off: the machine has no
 * network, and Chromium would otherwise keep trying to reach its update and sync services.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}
