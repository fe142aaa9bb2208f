"""engine layer (see DESIGN.md 'Layers')."""
