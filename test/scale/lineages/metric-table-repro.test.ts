import { describeBundledLineage } from "../support/bundled-lineage.js";

// One of the suite's three depth-10 lineages of bundled tasks, beside heatwave-audit and grid-puzzle-solver.
describeBundledLineage("metric-table-repro");
