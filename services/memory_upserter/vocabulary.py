"""Words the offline extractor's rules know: relationship roles, and what is never a name."""

from __future__ import annotations

from contracts.relations import ROLES  # the relation vocabulary graph-hydrator reads too

__all__ = ["NAMED_BY_ROLE", "NOT_NAMES", "ROLES"]

# Roles people use as a name ("Mom lives in Seattle"): an entity may be named after them.
NAMED_BY_ROLE = {"mom": "Mom", "mum": "Mum", "mother": "Mom", "dad": "Dad", "father": "Dad",
                 "grandma": "Grandma", "grandmother": "Grandma", "grandpa": "Grandpa",
                 "grandfather": "Grandpa"}
NOT_NAMES = frozenset("""i i'm i've i'll i'd my me we he she they it this that the a an and but
so then just also maybe yes no ok okay hi hey monday tuesday wednesday thursday friday saturday
sunday january february march april may june july august september october november december
today tomorrow tonight yesterday mom dad""".split())
