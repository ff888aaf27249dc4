"""Post-game reports: the figures (``model``, pure Python), CSV files, and the PDF for organisers."""
