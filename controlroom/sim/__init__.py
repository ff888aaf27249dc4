"""The battle simulator and the airtime planner: what organisers use to try a field before the game.

``battle`` plays a whole battle by the rules and turns it into the frames the
handsets and trackers would send (``roster`` makes up players and devices);
``simulator`` puts those frames on serial ports as LoRa gateways would
(``links``: ptys, sockets, serial ports), for ``controlroom sim`` and the demo;
``plan`` is the airtime planner of ``controlroom airtime --plan`` and
``controlroom keys``.  The wire protocol itself, ingest and transport stay in
``controlroom.radio``.
"""
