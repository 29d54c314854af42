import { describeBundledLineage } from "../support/bundled-lineage.js";

// A program task whose hidden inputs go through a file channel. The three bundled lineages of the
// suite (this, loan-schedule, lander-pilot) are a fixed sample; the sweep over every bundled task
// is `bench/scale-children.ts` (docs/benchmarks.md).
describeBundledLineage("orbit-propagate");
