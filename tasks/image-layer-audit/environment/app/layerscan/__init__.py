"""layerscan: a container-image security scanner (OCI image layouts, standard library only)."""
