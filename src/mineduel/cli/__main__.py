"""``python -m mineduel.cli``: the ``mineduel`` command, for a child process of this Python."""

import sys

from mineduel.cli import main

sys.exit(main())
