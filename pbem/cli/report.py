"""`pbem report`, `pbem site`, `pbem room render`: what players read."""
