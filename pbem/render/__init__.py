"""render layer (see DESIGN.md 'Layers')."""
