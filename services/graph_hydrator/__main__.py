"""``python -m services.graph_hydrator``: serve graph-hydrator alone.

The same as ``twin serve graph-hydrator``.
"""

import sys

from services.cli import main

sys.exit(main(["serve", "graph-hydrator", *sys.argv[1:]]))
