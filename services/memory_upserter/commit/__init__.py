"""``POST /v1/commit``: one turn, read (:mod:`.read`), judged when it came without a plan
(:mod:`.judge`, :mod:`.judge_store`), decided (:mod:`.plan`, :mod:`.response`), written in one
transaction (:mod:`.write` retries it; :mod:`.transaction` is its named steps, :mod:`.sql` its
statements, :mod:`.rows` the named rows they take), then indexed (:mod:`.index`,
:mod:`.session`); the data it carries between them is in :mod:`.turn`."""
