import { describeBundledLineage } from "../support/bundled-lineage.js";

// The interactive lander: its hidden inputs go through standard input (a stream channel).
describeBundledLineage("lander-pilot");
