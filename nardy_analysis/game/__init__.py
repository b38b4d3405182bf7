"""The game layer: rules, positions and legal plays, position IDs, the SVG board."""
