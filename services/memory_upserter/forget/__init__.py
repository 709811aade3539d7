"""``POST /v1/forget`` (003 §9) and a plan's ``forget``: what a forget selects and reaches
(:mod:`.types`), in Postgres (:mod:`.tx`, :mod:`.store`, :mod:`.quotes`, :mod:`.audit`), the
files rewritten (:mod:`.compact`), the vectors and working memory (:mod:`.cleanup`,
:mod:`.working_memory`), and the receipt (:mod:`.receipt`); :mod:`.run` runs them in order."""
