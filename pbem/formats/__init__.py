"""formats layer (see DESIGN.md 'Layers')."""
