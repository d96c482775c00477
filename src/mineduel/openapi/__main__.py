"""``python -m mineduel.openapi [--output FILE]`` (``make openapi``)."""

from mineduel.openapi.generate import main

main()
