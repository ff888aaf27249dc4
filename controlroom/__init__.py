"""controlroom: a desktop control room for large LARP battle games."""

__version__ = "0.1.0"
