"""Maps without Qt: coordinate systems (pyproj), world files, GeoTIFF, MBTiles, the drawing frame, GIS exports."""
