"""snapkit: a content-addressed incremental backup tool (standard library only).

Modules: chunker (content-defined chunking), store (config, packs, index), scan (reading a source
tree), snapshots (manifests), backup, restore, diff, retention (forget plans), audit, cli.
"""
FORMAT = "snapkit-1"
