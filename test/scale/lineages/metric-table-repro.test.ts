import { describeBundledLineage } from "../support/bundled-lineage.js";

// The suite's second depth-10 lineage, beside loan-schedule (orbit-propagate's is depth 4).
describeBundledLineage("metric-table-repro");
