"""The person as a whole: their profile seed (:mod:`.profile`), an agent's library
(:mod:`.knowledge`, :mod:`.chunking`), export and import (:mod:`.export`, :mod:`.importer`), and
the vector index brought back in line with Postgres (:mod:`.reindex`)."""
