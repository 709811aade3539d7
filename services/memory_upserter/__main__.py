"""``python -m services.memory_upserter``: serve memory-upserter alone
(same as ``twin serve memory-upserter``)."""

import sys

from services.cli import main

sys.exit(main(["serve", "memory-upserter", *sys.argv[1:]]))
