import { describeBundledLineage } from "../support/bundled-lineage.js";

// A program task whose input is the first existing path after the program (a first-path channel),
// and the suite's third depth-10 lineage of a bundled task, beside heatwave-audit and
// metric-table-repro (folder channels): deep enough to compose operations on earlier children's
// products. The sweep over every bundled task at depth 10 is `bench/scale-children.ts`
// (docs/benchmarks.md).
describeBundledLineage("grid-puzzle-solver");
