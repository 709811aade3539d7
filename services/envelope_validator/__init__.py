"""envelope-validator: assembles, validates and renders the inference envelope for the LLM.

No I/O."""
