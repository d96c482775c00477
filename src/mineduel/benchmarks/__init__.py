"""Benchmark modules run by ``mineduel.bench``; each exposes ``main() -> None``."""
