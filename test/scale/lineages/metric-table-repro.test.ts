import { describeBundledLineage } from "../support/bundled-lineage.js";

// One of the suite's three depth-10 lineages of bundled tasks, beside loan-schedule and orbit-propagate.
describeBundledLineage("metric-table-repro");
