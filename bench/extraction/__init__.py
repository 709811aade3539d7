"""bench/extraction: what the write path writes, against a labelled corpus (see __main__)."""
