import { describeBundledLineage } from "../support/bundled-lineage.js";

// A program task whose hidden inputs go through a file channel, and the suite's third depth-10
// lineage of a bundled task, beside loan-schedule (a folder channel) and metric-table-repro: deep
// enough to compose operations on earlier children's products. The sweep over every bundled task
// at depth 10 is `bench/scale-children.ts` (docs/benchmarks.md).
describeBundledLineage("orbit-propagate");
