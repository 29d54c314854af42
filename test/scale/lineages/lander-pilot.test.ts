import { describeBundledLineage } from "../support/bundled-lineage.js";

// The interactive lander: its hidden inputs go through standard input (a stream channel), every
// line through the channel's filter, so its children are the dearest to verify (about twice its
// own trial each): depth 1 here; the depth-10 lineages of the suite are heatwave-audit,
// metric-table-repro and grid-puzzle-solver, and every bundled task's is `bench/scale-children.ts`.
describeBundledLineage("lander-pilot", { depth: 1 });
