"""The terminal playground (``twin chat``): a client of the running nodes, not a seventh node."""
