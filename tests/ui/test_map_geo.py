"""The live map places GDAL-made maps where GDAL does: GeoTIFF in pieces, MBTiles as tiles; unknown CRS asks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QPointF

from controlroom.geo.source import CrsUnknown, open_map
from controlroom.ui.map.view import MapView
from tests.support.gdal_helpers import gdal, make_geotiff, pixel_of

TARTU = (58.38, 26.72)


@pytest.fixture
def view(qtbot):
    v = MapView(paint_hz=50.0)
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.show()
    qtbot.waitExposed(v)
    return v


def _points(n=10, seed=3, spread=0.004):
    rng = np.random.default_rng(seed)
    return [(TARTU[0] + dy, TARTU[1] + dx) for dy, dx in rng.uniform(-spread, spread, (n, 2))]


def _shown_pixel(view, lat, lon):
    """The image pixel (corner convention) the view shows at a WGS84 point, and the piece showing it."""
    x, y = view.projection.to_local(lat, lon)
    vb = view.getPlotItem().getViewBox()
    for piece, item in view.background_pieces:
        local = vb.mapFromViewToItem(item, QPointF(x, y))
        if -1e-6 <= local.x() <= piece.cols + 1e-6 and -1e-6 <= local.y() <= piece.rows + 1e-6:
            return (piece.col0 + local.x(), piece.row0 + local.y()), piece
    raise AssertionError(f"{lat}, {lon} is on no piece of the map")


@pytest.mark.parametrize("epsg, ullr", [
    (3301, [658300, 6474800, 659900, 6473700]),                  # L-EST97, 1 m pixels
    (32635, [483000, 6470600, 484600, 6469500]),                 # UTM 35N
    (4326, [26.70, 58.39, 26.74, 58.37]),                        # degrees
    (3857, [2973600, 8053500, 2976600, 8051400]),                # Web Mercator
])
def test_geotiff_is_shown_where_gdal_places_it(view, tmp_path, epsg, ullr):
    tif = make_geotiff(tmp_path / f"map{epsg}.tif", epsg, ullr, size=(1600, 1100))
    source = open_map(tif)
    view.set_map(source)
    assert view.map_source is source and view.projection is not None
    ground = source.ground_size()
    pixel_m = max(ground[0] / source.width, ground[1] / source.height)
    for lat, lon in _points():
        want = pixel_of(tif, lat, lon)
        if not source.contains(*want):
            continue
        got, piece = _shown_pixel(view, lat, lon)
        miss_px = math.hypot(got[0] - want[0], got[1] - want[1])
        assert miss_px <= 1.0 and miss_px * pixel_m <= 0.5, (lat, lon, miss_px)
    # The map's bounds in the frame: its width, plus what its grid's turn from true north adds (L-EST97: 2.3 degrees).
    view.fit_to_field()
    assert ground[0] * 0.995 <= view.field_bounds().width() <= ground[0] + 0.05 * ground[1]


def test_big_degree_map_is_cut_into_pieces(view, tmp_path):
    """Degrees bend against true metres: a 9 km map at 2 m is cut until each piece is placed to a quarter pixel."""
    tif = make_geotiff(tmp_path / "wide.tif", 4326, [26.64, 58.42, 26.80, 58.34], size=(4600, 4400), bands=1,
                       burn=(120,))
    view.set_map(open_map(tif))
    pieces = view.background_pieces
    assert len(pieces) > 1
    assert sum(p.cols * p.rows for p, _ in pieces) == 4600 * 4400
    assert max(p.error_m for p, _ in pieces) <= 0.1
    for lat, lon in _points(spread=0.03):
        want = pixel_of(tif, lat, lon)
        got, _ = _shown_pixel(view, lat, lon)
        assert math.hypot(got[0] - want[0], got[1] - want[1]) <= 1.0


@pytest.fixture
def mbtiles(tmp_path):
    tif = make_geotiff(tmp_path / "src.tif", 32635, [483000, 6470600, 484600, 6469500], size=(1600, 1100))
    mb = tmp_path / "field.mbtiles"
    gdal("gdal_translate", "-q", "-of", "MBTILES", tif, mb)
    gdal("gdaladdo", "-q", "-r", "average", mb, 2, 4, 8)
    return mb


def test_mbtiles_show_the_tiles_in_view_at_the_zoom_in_view(view, mbtiles):
    source = open_map(mbtiles)
    view.set_map(source)
    layer = view.tile_layer
    assert layer is not None and layer.tiles.maxzoom - layer.tiles.minzoom == 3
    vb = view.getPlotItem().getViewBox()
    x, y = view.projection.to_local(*source.centre())
    # 8 km across some 700 screen pixels: about 11 m a screen pixel, so a coarser zoom, with all the field.
    vb.setRange(xRange=(x - 4000, x + 4000), yRange=(y - 3000, y + 3000), padding=0)
    layer.update()
    assert layer.tiles.minzoom <= layer.zoom < layer.tiles.maxzoom
    whole = len(layer.shown())
    assert 1 <= whole <= 4
    # Zoomed in to 100 m: the finest zoom, and only the few tiles in view.
    vb.setRange(xRange=(x - 50, x + 50), yRange=(y - 40, y + 40), padding=0)
    layer.update()
    assert layer.zoom == layer.tiles.maxzoom and 1 <= len(layer.shown()) <= 4
    # A point's place on the finest tile is the mosaic's pixel that gdaltransform gives.
    lat, lon = source.centre()
    want = pixel_of(mbtiles, lat, lon)
    fx, fy = view.projection.to_local(lat, lon)
    world = source.world.corner_to_world(0.0, 0.0)
    res = source.world.a
    for key in layer.shown():
        z, tx, ty = key
        local = vb.mapFromViewToItem(layer.item(key), QPointF(fx, fy))
        size = layer.tiles.tile_size
        if 0 <= local.x() <= size and 0 <= local.y() <= size:
            # Global pixel of the mosaic at maxzoom, from the top-left of the extent.
            gx = tx * size + local.x() - (world[0] + math.pi * 6378137.0) / res
            gy = ty * size + local.y() - (math.pi * 6378137.0 - world[1]) / res
            assert math.hypot(gx - want[0], gy - want[1]) <= 1.0
            break
    else:
        raise AssertionError("the centre is on no tile shown")


def test_mbtiles_cache_is_bounded(view, mbtiles):
    view.set_map(open_map(mbtiles))
    layer = view.tile_layer
    layer.cache_tiles = 3
    vb = view.getPlotItem().getViewBox()
    bounds = layer.bounds()
    for fx in np.linspace(0.1, 0.9, 6):
        cx = bounds.left() + fx * bounds.width()
        vb.setRange(xRange=(cx - 60, cx + 60), yRange=(bounds.center().y() - 40, bounds.center().y() + 40), padding=0)
        layer.update()
        assert len(layer._cache) <= 3
    reads = layer.reads
    layer.update()                              # the same view again: nothing read from the file
    assert layer.reads == reads
    view.clear_background()
    assert view.tile_layer is None


def test_crs_dialog_offers_candidates_and_takes_a_code(qtbot, tmp_path):
    from PySide6.QtWidgets import QDialogButtonBox

    from controlroom.ui.map.open import CrsDialog

    tif = make_geotiff(tmp_path / "src.tif", 3301, [658300, 6474800, 659900, 6473700], size=(400, 275))
    png = tmp_path / "field.png"
    gdal("gdal_translate", "-q", "-of", "PNG", "-co", "WORLDFILE=YES", tif, png)
    (tmp_path / "field.png.aux.xml").unlink()
    with pytest.raises(CrsUnknown) as caught:
        open_map(png)
    dialog = CrsDialog(caught.value, near=TARTU)
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert dialog.candidates[0].label == "EPSG:3301" and not ok.isEnabled()      # nothing chosen for them
    dialog.choose(0)
    assert dialog.chosen().to_epsg() == 3301 and ok.isEnabled()
    source = dialog.chosen_source()
    assert source.locate(*TARTU) == pytest.approx(pixel_of(tif, *TARTU), abs=1e-3)
    dialog.code.setText("EPSG:999999")
    assert dialog.chosen() is None and not ok.isEnabled() and dialog.described.text()
    dialog.code.setText("32635")
    assert dialog.chosen().to_epsg() == 32635 and "centre would be at" in dialog.described.text()
