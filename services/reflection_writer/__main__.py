"""``python -m services.reflection_writer``: serve reflection-writer alone (same as
``twin serve reflection-writer``)."""

import sys

from services.cli import main

sys.exit(main(["serve", "reflection-writer", *sys.argv[1:]]))
