import { describeBundledLineage } from "../support/bundled-lineage.js";

// A program with subcommands (`tokctl.py train|encode|stats|audit ...`): its input is the first
// existing path after the program (a first-path channel), and `stats` reads a config whose corpus
// lies beside it, so the presented config must keep its neighbours. Depth 1 with real trials.
describeBundledLineage("bpe-tokenizer-repro", { depth: 1 });
