"""``python -m services.envelope_validator``: serve envelope-validator alone.

Same as ``twin serve envelope-validator``."""

import sys

from services.cli import main

sys.exit(main(["serve", "envelope-validator", *sys.argv[1:]]))
