"""store layer (see DESIGN.md 'Layers')."""
