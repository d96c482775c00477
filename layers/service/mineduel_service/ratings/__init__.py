"""ratings."""
