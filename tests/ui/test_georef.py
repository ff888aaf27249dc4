"""Georeferencing dialog: control points -> world file in the field's UTM zone, with .prj and .aux.xml."""

import math

import pytest
from pyproj import Transformer
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

from controlroom.geo.crs import read_aux_xml, read_prj
from controlroom.geo.frame import MapFrame
from controlroom.geo.worldfile import WorldFile, read_world_file, world_file_for
from controlroom.ui.map.georef import GeorefDialog, sidecar_path, write_world_file

PROJ = MapFrame(58.3781, 26.7290)
UTM35 = Transformer.from_crs(4326, 32635, always_xy=True)
# The truth, in metres of the field's frame: 0.5 m pixels, rotated 20 degrees, north-up-ish (e < 0),
# the top-left pixel 300 m west and 200 m north of the centre.
_T = math.radians(20.0)
TRUE_WF = WorldFile(0.5 * math.cos(_T), 0.5 * math.sin(_T),
                    0.5 * math.sin(_T), -0.5 * math.cos(_T), -300.0, 200.0)
PIXELS = [(10.0, 20.0), (380.0, 35.0), (200.0, 270.0), (30.0, 250.0)]


def latlon(col, row, wf=TRUE_WF):
    x, y = wf.pixel_to_world(col, row)
    return PROJ.to_geographic(x, y)


@pytest.fixture
def image(tmp_path):
    img = QImage(400, 300, QImage.Format.Format_RGB32)
    img.fill(QColor("darkgreen"))
    path = tmp_path / "field.png"
    assert img.save(str(path))
    return path


@pytest.fixture
def dialog(qtbot, image):
    dlg = GeorefDialog(image)
    qtbot.addWidget(dlg)
    return dlg


def assert_wf_close(got, want=TRUE_WF, abs_=1e-3):
    """The fitted world file (UTM 35N) puts pixels where the truth does, to a millimetre."""
    for col, row in [(0, 0), (399, 0), (0, 299), (399, 299), (200, 150)]:
        lat, lon = latlon(col, row, want)
        assert got.pixel_to_world(col, row) == pytest.approx(UTM35.transform(lon, lat), abs=abs_)


def test_sidecar_names(tmp_path):
    assert sidecar_path(tmp_path / "a.png") == tmp_path / "a.pgw"
    assert sidecar_path(tmp_path / "a.PNG") == tmp_path / "a.pgw"
    assert sidecar_path(tmp_path / "a.jpg") == tmp_path / "a.jgw"
    assert sidecar_path(tmp_path / "a.jpeg") == tmp_path / "a.jgw"
    assert sidecar_path(tmp_path / "a.tif") == tmp_path / "a.tfw"
    assert sidecar_path(tmp_path / "a.webp") == tmp_path / "a.wld"


def test_write_world_file_round_trips_full_precision(tmp_path):
    wf = WorldFile(0.1 + 0.2, 1e-17, -math.pi / 7, -1 / 3, 123456.789012345678, -9.87654321e-5)
    path = write_world_file(tmp_path / "x.wld", wf)
    lines = path.read_text().splitlines()
    assert len(lines) == 6 and all(float(s) == v for s, v in zip(lines, wf.as_lines()))
    assert read_world_file(path) == wf
    assert [p.name for p in tmp_path.iterdir()] == ["x.wld"]  # no temp file left


def test_three_points_fit_exactly_and_save(dialog, image):
    assert dialog.fit() is None and dialog.residual_m() is None
    for col, row in PIXELS[:3]:
        i = dialog.add_point(col, row)
        dialog.set_coordinates(i, *latlon(col, row))
    wf = dialog.fit()
    assert_wf_close(wf, TRUE_WF)
    assert dialog.residual_m() == 0.0
    assert dialog.message() == ""
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()

    path = dialog.save()
    assert path == image.with_suffix(".pgw") == world_file_for(image)
    assert read_world_file(path) == wf
    assert dialog.saved_path() == path and dialog.result_world_file() == wf
    # In a real coordinate system, named twice: .prj for GIS tools, .aux.xml for GDAL and QGIS.
    assert read_prj(image.with_suffix(".prj")).to_epsg() == 32635
    assert read_aux_xml(image.with_name("field.png.aux.xml"))[0].to_epsg() == 32635
    assert dialog.result_calibration().crs.to_epsg() == 32635


def test_four_points_residual_and_accept(dialog, image):
    for col, row in PIXELS:
        dialog.set_coordinates(dialog.add_point(col, row), *latlon(col, row))
    assert_wf_close(dialog.fit(), TRUE_WF)
    assert dialog.residual_m() == pytest.approx(0.0, abs=1e-3)

    # Move one point's coordinates 4 m east: the RMS error is no longer zero, and the point shows it.
    x, y = TRUE_WF.pixel_to_world(*PIXELS[3])
    dialog.set_coordinates(3, *PROJ.to_geographic(x + 4.0, y))
    assert 0.5 < dialog.residual_m() < 4.0
    assert "m RMS over 4 points" in dialog.residual_label.text()
    errors = [float(dialog.table.item(i, 4).text()) for i in range(4)]
    assert errors[3] == max(errors) and errors[3] > 1.0

    dialog.remove_point(3)
    assert dialog.point_count() == 3 and dialog.residual_m() == 0.0

    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    assert read_world_file(dialog.saved_path()) == dialog.result_world_file()
    assert_wf_close(dialog.result_world_file(), TRUE_WF)


def test_typed_text_is_parsed_and_bad_text_explained(dialog):
    for col, row in PIXELS[:3]:
        dialog.add_point(col, row)
    lat, lon = latlon(*PIXELS[0])
    dialog.set_coordinates(0, f"{lat:.12f}".replace(".", ","), f" {lon:.12f} ")
    for i in (1, 2):
        dialog.set_coordinates(i, *latlon(*PIXELS[i]))
    assert_wf_close(dialog.fit(), TRUE_WF, abs_=1e-3)

    dialog.set_coordinates(1, "58.37N", "26.7")
    assert dialog.fit() is None and dialog.residual_m() is None
    assert "Point 2" in dialog.message() and "number" in dialog.message()
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()

    dialog.set_coordinates(1, "126.7", "58.3")
    assert dialog.fit() is None and "between -90 and 90" in dialog.message()


def test_too_few_points_message(dialog, image):
    dialog.set_coordinates(dialog.add_point(1, 1), *latlon(1, 1))
    dialog.add_point(50, 50)  # no coordinates yet: not counted
    assert dialog.fit() is None
    assert "1 of 3" in dialog.message() and dialog.message_label.text() == dialog.message()
    with pytest.raises(ValueError, match="1 of 3"):
        dialog.save()
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted
    assert world_file_for(image) is None


def test_collinear_points_give_message_and_no_save(dialog, image):
    for col, row in [(0, 0), (100, 50), (200, 100)]:
        dialog.set_coordinates(dialog.add_point(col, row), *latlon(col, row))
    assert dialog.fit() is None and dialog.residual_m() is None
    assert "one line" in dialog.message()
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    with pytest.raises(ValueError, match="one line"):
        dialog.save()
    dialog.accept()
    assert dialog.saved_path() is None and dialog.result_world_file() is None
    assert world_file_for(image) is None


def test_edit_in_table_cell_refits(dialog):
    for col, row in PIXELS[:3]:
        dialog.add_point(col, row)
    for i, (col, row) in enumerate(PIXELS[:3]):
        lat, lon = latlon(col, row)
        dialog.table.item(i, 2).setText(repr(lat))  # as if typed: itemChanged -> refresh
        dialog.table.item(i, 3).setText(repr(lon))
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert "0 m" in dialog.residual_label.text()


def test_scene_click_handler_uses_pixel_centres(dialog):
    # The image item's pixel (10, 20) covers scene [10, 11] x [20, 21]; its centre is pixel (10, 20).
    assert dialog.on_scene_clicked(QPointF(10.5, 20.5)) == 0
    assert dialog.pixel(0) == pytest.approx((10.0, 20.0))
    assert dialog.on_scene_clicked(QPointF(-5, 10)) is None  # outside the image
    assert dialog.point_count() == 1


def test_mouse_click_on_view_adds_point(dialog):
    # No need to show a window: the view gets the press event and maps it through its transform.
    dialog.view.resize(400, 300)
    target = QPointF(120.5, 80.5)
    pos = dialog.view.mapFromScene(target)
    QTest.mouseClick(dialog.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
    assert dialog.point_count() == 1
    col, row = dialog.pixel(0)
    assert abs(col - 120.0) <= 1.0 and abs(row - 80.0) <= 1.0
    assert dialog.table.item(0, 2).text() == ""  # coordinates still to be typed

    # Remove point button removes the selected row.
    dialog.table.selectRow(0)
    dialog.remove_button.click()
    assert dialog.point_count() == 0


def test_unreadable_image_raises(qtbot, tmp_path):
    bad = tmp_path / "nothing.png"
    bad.write_bytes(b"not an image")
    with pytest.raises(OSError):
        GeorefDialog(bad)


def test_wheel_zooms_the_view(dialog):
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    view = dialog.view
    view.resize(400, 300)
    before = view.transform().m11()
    centre = QPointF(200, 150)
    event = QWheelEvent(centre, view.viewport().mapToGlobal(centre), QPoint(0, 0), QPoint(0, 120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)
    assert view.transform().m11() == pytest.approx(before * 1.25)
