"""colony: the plate lab's colony counter (PNG reading, foreground, components, plate batches)."""
