"""graph-hydrator: finds the entities a message mentions, disambiguates them and returns their
local subgraph, foundation facts and this agent's todo lists as the GRAPH slot."""
