import { describeBundledLineage } from "../support/bundled-lineage.js";

// A program task whose hidden inputs go through a file channel. The three depth-10 lineages of the
// suite (this, loan-schedule, metric-table-repro) are a fixed sample; the sweep over every bundled task
// is `bench/scale-children.ts` (docs/benchmarks.md).
describeBundledLineage("orbit-propagate");
