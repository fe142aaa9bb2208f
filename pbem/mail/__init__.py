"""mail layer (see DESIGN.md 'Layers')."""
