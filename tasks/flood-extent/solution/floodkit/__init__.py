"""floodkit: flood mapping from pre/post-event multispectral tiles (standard library only)."""
