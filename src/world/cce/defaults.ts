/** Calls sampled inside and outside the closure for the counterfactual check, by default. */
export const DEFAULT_CCE_SAMPLES = 8;
