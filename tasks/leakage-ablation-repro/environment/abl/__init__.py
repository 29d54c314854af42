"""abl: a small cross-validated ablation harness (k-NN and Gaussian naive Bayes)."""
