import { describeBundledLineage } from "../support/bundled-lineage.js";

// A program task whose hidden inputs go through a file channel: depth 4 here, enough to compose
// operations on earlier children's products. The suite's depth-10 lineages are loan-schedule (a
// program task, folder channel) and metric-table-repro; the sweep over every bundled task at
// depth 10 is `bench/scale-children.ts` (docs/benchmarks.md).
describeBundledLineage("orbit-propagate", { depth: 4 });
