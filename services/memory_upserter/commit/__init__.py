"""``POST /v1/commit``: one turn, its steps called in order by :mod:`.write`: read
(:mod:`.read`), judged when it came without a plan (:mod:`.judge`, :mod:`.judge_store`), the
which-question it answers found (:mod:`.answer`), decided (:mod:`.plan`; a model's facts
grounded in the person's words by :mod:`.grounding` with :mod:`.spoken` and :mod:`.support`,
the states their words end by :mod:`.ending`, its names resolved by :mod:`.names` among the
entities :mod:`.known` read, its todos as rows by :mod:`.todo_rows`), written in one
transaction (:mod:`.transaction` calls its steps in :mod:`.sql`'s order and retries it: the
messages, then :mod:`.entities`, :mod:`.facts` with :mod:`.supersede`, :mod:`.todos` and
:mod:`.fact_writes`, :mod:`.capture`, the answer built by :mod:`.response` and stored by
:mod:`.finish`; :mod:`.rows` the named rows its statements take), then indexed (:mod:`.index`,
:mod:`.session`); the data it carries between them is in :mod:`.turn`. Each step's helpers
live in its module, so a reader goes through the files top-down and seldom turns back
(``bench/walk.py``)."""
