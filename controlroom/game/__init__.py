"""Events, the game-state projection, the game clock and rule deadlines (pure)."""
