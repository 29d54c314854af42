import { describeBundledLineage } from "../support/bundled-lineage.js";

// The third depth-10 lineage of the suite, beside orbit-propagate and loan-schedule.
describeBundledLineage("metric-table-repro");
