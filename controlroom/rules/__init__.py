"""The seed ruleset as pure Python: no Qt, no database."""
