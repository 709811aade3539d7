"""End-to-end: the exported workflows, imported into a real n8n, driving the six real nodes."""
