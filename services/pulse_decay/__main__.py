"""``python -m services.pulse_decay``: serve pulse-decay alone (``twin serve pulse-decay``)."""

import sys

from services.cli import main

sys.exit(main(["serve", "pulse-decay", *sys.argv[1:]]))
