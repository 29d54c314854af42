/** The nine task categories of the long-horizon dataset. */
export const CATEGORIES = [
  "software-engineering",
  "earth-climate-energy",
  "multimodal-image",
  "scientific-computing",
  "research-ml",
  "systems-security",
  "professional-workflows",
  "interactive-games",
  "logic-puzzles",
] as const;
export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
