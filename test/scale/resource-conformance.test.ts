import { RESOURCE_TRANSFORMS } from "../../src/scale/transforms/resource/index.js";
import { describeTransformConformance, sampleEnvironments } from "../support/transform-conformance.js";

for (const t of RESOURCE_TRANSFORMS) describeTransformConformance(t, sampleEnvironments);
