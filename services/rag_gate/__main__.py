"""``python -m services.rag_gate``: serve rag-gate alone (same as ``twin serve rag-gate``)."""

import sys

from services.cli import main

sys.exit(main(["serve", "rag-gate", *sys.argv[1:]]))
