"""Qt adapters: the core worker thread that owns the game, and the wiring around it."""
