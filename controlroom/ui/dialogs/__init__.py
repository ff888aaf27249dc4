"""The window's dialogs: correcting a report, a player's card, finding a player or a group."""
