"""Benchmark modules run by ``mineduel.benchmarks``; each exposes ``main() -> None``."""
