"""``python -m nardy_analysis``: the ``nardy`` command line."""

from .cli import main

main()
