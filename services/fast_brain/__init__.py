"""The fast brain in one call: pulse-decay → graph-hydrator → rag-gate → envelope-validator."""
