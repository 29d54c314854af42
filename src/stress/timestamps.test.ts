import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatInstant,
  parseInstant,
  parseZone,
  TIMESTAMP_FORMATS,
  truncateToFormat,
  zoneName,
} from "./timestamps.js";

// 1900-01-01 .. 2100-01-01, and offsets on quarter hours within −12:00..+14:00.
const instant = fc.integer({ min: -2208988800000, max: 4102444800000 });
const offset = fc.integer({ min: -48, max: 56 }).map((q) => q * 15);

describe("timestamps", () => {
  it("parse(format(t)) denotes the same instant, to the format's precision, in any zone", () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...TIMESTAMP_FORMATS), offset, (t, format, off) => {
        const text = formatInstant(t, format, off);
        const local = format.startsWith("local");
        const parsed = parseInstant(text, { format, zoneOffsetMinutes: local ? off : 0 });
        expect(parsed).toBe(truncateToFormat(t, format));
      }),
    );
  });

  it("agrees with the platform's Date.parse for ISO 8601 and RFC 2822", () => {
    fc.assert(
      fc.property(
        instant,
        offset,
        fc.constantFrom("iso", "iso-seconds", "rfc2822" as const),
        (t, off, format) => {
          const text = formatInstant(t, format, off);
          expect(Date.parse(text)).toBe(truncateToFormat(t, format));
        },
      ),
    );
  });

  it("writes the documented shapes", () => {
    const t = Date.UTC(2026, 2, 1, 8, 35, 9, 123);
    expect(formatInstant(t, "iso", 330)).toBe("2026-03-01T14:05:09.123+05:30");
    expect(formatInstant(t, "iso-seconds", 0)).toBe("2026-03-01T08:35:09Z");
    expect(formatInstant(t, "rfc2822", 330)).toBe("Sun, 01 Mar 2026 14:05:09 +0530");
    expect(formatInstant(t, "local-minute", -300)).toBe("2026/03/01 03:35");
    expect(formatInstant(t, "epoch-s")).toBe("1772354109");
    expect(parseInstant("1772354109123")).toBe(t);
    expect(parseInstant("2026/03/01 03:35", { zoneOffsetMinutes: -300 })).toBe(Date.UTC(2026, 2, 1, 8, 35));
  });

  it("names zones and rejects nonsense", () => {
    expect(zoneName(0)).toBe("UTC");
    expect(zoneName(-210)).toBe("-03:30");
    expect(parseZone("UTC+05:45")).toBe(345);
    expect(() => parseInstant("2026-02-30T00:00:00Z")).toThrow(/invalid/);
    expect(() => parseInstant("yesterday")).toThrow(/unrecognised/);
  });
});
