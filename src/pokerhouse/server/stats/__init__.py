"""Players' statistics and the people's leaderboards over HTTP."""
