import { describeDatasetPart } from "./support/dataset-check.js";

// The bundled dataset's `task check` in two files, so that the suite's two workers share it.
await describeDatasetPart(2, 2);
