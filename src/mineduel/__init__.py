"""The ``mineduel`` command line and the local stack (``mineduel serve``)."""
