"""The station's web view for field staff: a live page for phones, fed by the core's deltas (no Qt here).

``web.server`` serves it (aiohttp, in its own thread and event loop),
``web.hub`` takes the core's facts from any thread, ``web.view`` keeps what
the page shows from them, ``web.access`` checks the invites' tokens and
``web.invites`` makes them.  The Qt side is ``core.web_feed``.
"""
