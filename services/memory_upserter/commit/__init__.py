"""``POST /v1/commit``: one turn, its steps called in order by :mod:`.write`: read
(:mod:`.read`), judged when it came without a plan (:mod:`.judge`, :mod:`.judge_store`), the
which-question it answers found (:mod:`.answer`), decided (:mod:`.plan`, :mod:`.response`; a
model's facts grounded in the person's words by :mod:`.grounding` with :mod:`.spoken` and
:mod:`.support`, the states their words end by :mod:`.ending`), written in one transaction
(:mod:`.write` retries it; :mod:`.transaction` is its named steps, :mod:`.sql` its statements,
:mod:`.rows` the named rows they take), then indexed (:mod:`.index`, :mod:`.session`); the data
it carries between them is in :mod:`.turn`."""
