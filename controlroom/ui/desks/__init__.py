"""The desks beside the field: Valhalla and weapon check, and the switch between them and the map."""
