"""pulse-decay: loads the working memory of (user, agent, chat), decays the AFFECT state
(003 §8), counts the message."""
