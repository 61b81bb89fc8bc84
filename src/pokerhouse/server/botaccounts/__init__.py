"""Bot accounts over HTTP, and the bots' leaderboards."""
