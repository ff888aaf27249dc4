"""The engine: one open game's road from the radio to the record, as plain objects (no Qt, no threads).

A frame or a command becomes a ``Report`` (``reports``); reports, deadlines
due and corrections become a ``Batch`` (``batching``); a committed batch is
folded, and becomes the acknowledgements to send, the announcements and the
delta due (``engine.Engine``, which returns each step's ``Output``).  The
core (``controlroom.core``) only runs it: its timers, its two threads and the
signals that carry its outputs to the window.
"""
