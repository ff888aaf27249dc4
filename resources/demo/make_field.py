"""Draw resources/demo/field.png, its georeference (field.pgw, field.prj, field.png.aux.xml) and field.json.

The bundled demo field of ``controlroom demo``: a top-down battlefield map
of 1600 x 1100 pixels at 1 metre per pixel, drawn with QPainter (offscreen,
no display needed).  Run once by developers; the output is committed:

    .venv/bin/python resources/demo/make_field.py

Drawing coordinates: x metres east and y metres north of the field's GPS
origin (lat 58.38, lon 26.72), the centre of the image, as the simulator
(controlroom.sim.battle.to_latlon_e7) turns them into GPS positions.  The
image spans x in [-800, 800] and y in [-550, 550]: pixel column c, row r
(0-based, rows downward) has its centre at x = C + c, y = F - r with
C = -799.5 and F = 549.5.  The georeference written beside it is that same
placing in degrees (EPSG:4326, named by field.prj and field.png.aux.xml), so
the map and the simulated positions agree exactly:

    .venv/bin/python resources/demo/make_field.py --georeference-only

rewrites only the georeference.
Deterministic: a fixed random seed.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QGuiApplication,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)

HERE = Path(__file__).resolve().parent
WIDTH, HEIGHT = 1600, 1100          # pixels = metres
PIXEL = 1.0                         # metres per pixel
ORIGIN_LAT, ORIGIN_LON = 58.38, 26.72
HALF_W, HALF_H = WIDTH * PIXEL / 2, HEIGHT * PIXEL / 2
C = -HALF_W + PIXEL / 2             # x of the centre of the top-left pixel
F = HALF_H - PIXEL / 2              # y of the centre of the top-left pixel
SEED = 58_3826_72

# Places, in metres east / north of the origin.
FORT = (-380.0, 190.0)
FORD = None                          # on the river where the road crosses (computed below)
FOREST = (430.0, 330.0)
VALHALLA = (690.0, -430.0)
# The battle area (dashed boundary); Valhalla lies outside it.
BATTLE = (-720.0, -470.0, 590.0, 480.0)   # x0, y0, x1, y1


def P(x: float, y: float) -> QPointF:  # noqa: N802 - a QPointF's capital, on every drawing line below
    """The painter point (pixel space, y down) of a place in metres."""
    return QPointF((x - C) / PIXEL + 0.5, (F - y) / PIXEL + 0.5)


def river_x(y: float) -> float:
    """The river's centre line: it runs north-south, meandering, east of the middle."""
    return 140 + 70 * math.sin(y / 170.0) + 25 * math.sin(y / 53.0 + 1.0)


def road_points() -> list[tuple[float, float]]:
    """The track: from the west edge past the fort's gate, across the ford, to the east edge."""
    return [(-800, -250), (-640, -190), (-520, -60), (-420, 60), (-380, 130),   # to the gate (south side)
            (-300, 60), (-140, -10), (20, -40), (ford_xy()[0], ford_xy()[1]),
            (300, -60), (470, -20), (620, 40), (800, 80)]


def ford_xy() -> tuple[float, float]:
    y = -45.0
    return (round(river_x(y), 1), y)


def background(rng: np.random.Generator) -> QImage:
    """Meadow green with soft large-scale variation and a faint fine grain."""
    def smooth(cells_x: int, cells_y: int) -> np.ndarray:
        coarse = rng.standard_normal((cells_y + 1, cells_x + 1))
        ys = np.linspace(0, cells_y, HEIGHT)
        xs = np.linspace(0, cells_x, WIDTH)
        y0 = np.floor(ys).astype(int).clip(0, cells_y - 1)
        x0 = np.floor(xs).astype(int).clip(0, cells_x - 1)
        ty = (ys - y0)[:, None]
        tx = (xs - x0)[None, :]
        ty, tx = ty * ty * (3 - 2 * ty), tx * tx * (3 - 2 * tx)
        a = coarse[y0][:, x0]
        b = coarse[y0][:, x0 + 1]
        c = coarse[y0 + 1][:, x0]
        d = coarse[y0 + 1][:, x0 + 1]
        return (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty

    field = 0.6 * smooth(8, 6) + 0.4 * smooth(32, 22)
    grain = np.where(rng.random((HEIGHT, WIDTH)) < 0.06, rng.choice([-4, 4], (HEIGHT, WIDTH)), 0)   # sparse speckle
    base = np.array([150, 184, 108], dtype=float)          # meadow
    tint = np.array([14, 10, 12], dtype=float)
    rgb = base[None, None, :] + field[..., None] * tint[None, None, :] + grain[..., None]
    rgb = np.round(rgb / 4) * 4                            # fewer distinct colours: a smaller PNG
    rgb = rgb.clip(0, 255).astype(np.uint8)
    rgba = np.dstack([rgb, np.full((HEIGHT, WIDTH), 255, np.uint8)])
    img = QImage(rgba.tobytes(), WIDTH, HEIGHT, WIDTH * 4, QImage.Format.Format_RGBA8888)
    return img.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)   # copy: own the pixels


def draw_hill(p: QPainter) -> None:
    """Contour-ish rings around the fort's hill, each a little wobbly, slightly offset uphill."""
    cx, cy = FORT
    for i, r in enumerate(range(250, 40, -35)):
        poly = QPolygonF()
        for k in range(73):
            a = 2 * math.pi * k / 72
            rr = r * (1 + 0.08 * math.sin(3 * a + i) + 0.05 * math.sin(5 * a + 2 * i))
            poly.append(P(cx + 8 * i + rr * 1.15 * math.cos(a), cy + 5 * i + rr * math.sin(a)))
        shade = QColor(170 + 7 * i, 178 + 4 * i, 108 + 2 * i, 90)
        p.setBrush(shade)
        p.setPen(QPen(QColor(120, 96, 60, 150), 1.2))
        p.drawPolygon(poly)


def draw_forest(p: QPainter, rng: np.random.Generator) -> None:
    """Clusters of tree crowns: a dark floor under overlapping round blobs."""
    clusters = [(430, 330, 190, 130, 520), (560, 180, 90, 80, 160), (250, 420, 110, 70, 170),
                (-600, -380, 120, 80, 170), (-140, 400, 70, 50, 70)]
    for cx, cy, rx, ry, n in clusters:
        floor = QPainterPath()
        floor.addEllipse(P(cx, cy), rx * 1.05, ry * 1.05)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(74, 112, 58, 150))
        p.drawPath(floor)
        for _ in range(n):
            a = rng.uniform(0, 2 * math.pi)
            d = math.sqrt(rng.uniform(0, 1))
            x, y = cx + d * rx * math.cos(a), cy + d * ry * math.sin(a)
            if abs(x - river_x(y)) < 30:
                continue                                     # no trees in the water
            r = rng.uniform(5, 11)
            g = int(rng.integers(0, 30))
            p.setBrush(QColor(40, 78 + g, 38, 235))
            p.setPen(QPen(QColor(28, 54, 28, 200), 0.8))
            p.drawEllipse(P(x, y), r, r)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(90, 140 + g, 70, 150))
            p.drawEllipse(P(x - r * 0.3, y + r * 0.3), r * 0.45, r * 0.45)


def draw_river(p: QPainter) -> None:
    path = QPainterPath(P(river_x(HALF_H + 20), HALF_H + 20))
    y = HALF_H + 20
    while y > -HALF_H - 20:
        y -= 10
        path.lineTo(P(river_x(y), y))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(QColor(150, 128, 86), 34, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap,
                  Qt.PenJoinStyle.RoundJoin))
    p.drawPath(path)                                        # muddy banks
    p.setPen(QPen(QColor(62, 116, 170), 26, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap,
                  Qt.PenJoinStyle.RoundJoin))
    p.drawPath(path)
    p.setPen(QPen(QColor(96, 150, 200), 8, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap,
                  Qt.PenJoinStyle.RoundJoin))
    p.drawPath(path)
    # the ford: a shallow, sandy, lighter stretch with stepping stones
    fx, fy = ford_xy()
    shallow = QPainterPath()
    shallow.addEllipse(P(fx, fy), 30, 26)
    p.setPen(QPen(QColor(200, 190, 150), 2))
    p.setBrush(QColor(160, 205, 225))
    p.drawPath(shallow)
    p.setPen(QPen(QColor(220, 208, 160), 1))
    p.setBrush(QColor(214, 200, 150))
    for dx, dy in [(-16, 4), (-6, -3), (4, 5), (14, -2), (0, 14), (-4, -15)]:
        p.drawEllipse(P(fx + dx, fy + dy), 3.2, 2.4)


def draw_road(p: QPainter) -> None:
    pts = road_points()
    path = QPainterPath(P(*pts[0]))
    for a, b in zip(pts[1:-1], pts[2:]):                    # smooth through the midpoints
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        path.quadTo(P(*a), P(*mid))
    path.lineTo(P(*pts[-1]))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(QColor(150, 124, 84), 9, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                  Qt.PenJoinStyle.RoundJoin))
    p.drawPath(path)
    p.setPen(QPen(QColor(206, 182, 132), 6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                  Qt.PenJoinStyle.RoundJoin))
    p.drawPath(path)
    p.setPen(QPen(QColor(180, 154, 106), 1, Qt.PenStyle.DashLine))
    p.drawPath(path)                                        # wheel ruts
    gate = QPainterPath(P(FORT[0], 112))                     # spur up to the fort's gate
    gate.lineTo(P(FORT[0], FORT[1] - 40))
    p.setPen(QPen(QColor(206, 182, 132), 6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
    p.drawPath(gate)


def draw_fort(p: QPainter) -> None:
    cx, cy = FORT
    w, h = 130, 95
    rect = QRectF(P(cx - w / 2, cy + h / 2), P(cx + w / 2, cy - h / 2))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(176, 150, 104))                       # trampled yard
    p.drawRect(rect)
    # buildings inside
    p.setBrush(QColor(128, 84, 56))
    p.setPen(QPen(QColor(70, 46, 30), 1))
    for bx, by, bw, bh in [(-45, 25, 34, 18), (5, 28, 40, 14), (-40, -12, 18, 26), (28, -5, 22, 20)]:
        p.drawRect(QRectF(P(cx + bx, cy + by), P(cx + bx + bw, cy + by - bh)))
    # palisade: a thick stake wall with a gate gap on the south side
    stake = QPen(QColor(92, 60, 34), 5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.SquareCap)
    p.setPen(stake)
    p.setBrush(Qt.BrushStyle.NoBrush)
    x0, x1, y0, y1 = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
    gate = 14
    p.drawPolyline([P(cx - gate / 2, y0), P(x0, y0), P(x0, y1), P(x1, y1), P(x1, y0), P(cx + gate / 2, y0)])
    p.setPen(QPen(QColor(150, 110, 70), 1.2, Qt.PenStyle.DotLine))
    p.drawPolyline([P(cx - gate / 2, y0), P(x0, y0), P(x0, y1), P(x1, y1), P(x1, y0), P(cx + gate / 2, y0)])
    # towers at the corners and at the gate
    p.setPen(QPen(QColor(50, 32, 20), 1.5))
    p.setBrush(QColor(120, 80, 46))
    for tx, ty in [(x0, y0), (x0, y1), (x1, y1), (x1, y0), (cx - gate / 2 - 6, y0), (cx + gate / 2 + 6, y0)]:
        size = 14 if (tx, ty) in [(x0, y0), (x0, y1), (x1, y1), (x1, y0)] else 9
        p.drawRect(QRectF(P(tx, ty).x() - size / 2, P(tx, ty).y() - size / 2, size, size))
        p.drawLine(P(tx, ty) + QPointF(-size / 2, -size / 2), P(tx, ty) + QPointF(size / 2, size / 2))
        p.drawLine(P(tx, ty) + QPointF(-size / 2, size / 2), P(tx, ty) + QPointF(size / 2, -size / 2))


def draw_battle_boundary(p: QPainter) -> None:
    x0, y0, x1, y1 = BATTLE
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(QColor(250, 250, 240, 170), 5))
    p.drawRect(QRectF(P(x0, y1), P(x1, y0)))
    pen = QPen(QColor(150, 30, 30, 220), 2.5, Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.drawRect(QRectF(P(x0, y1), P(x1, y0)))


def draw_valhalla(p: QPainter) -> None:
    """Valhalla: the dead's tent area, fenced with red-and-white ribbon, outside the battle area."""
    cx, cy = VALHALLA
    w, h = 150, 120
    rect = QRectF(P(cx - w / 2, cy + h / 2), P(cx + w / 2, cy - h / 2))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(200, 196, 150, 120))
    p.drawRect(rect)
    # the ribbon: white line under a dashed red one (red-white stripes)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(QColor(255, 255, 255), 5))
    p.drawRect(rect)
    red = QPen(QColor(214, 24, 30), 5, Qt.PenStyle.CustomDashLine, Qt.PenCapStyle.FlatCap)
    red.setDashPattern([1.6, 1.6])                          # in pen widths: 8 px red, 8 px white
    p.setPen(red)
    p.drawRect(rect)
    # ribbon posts
    p.setPen(QPen(QColor(60, 40, 30), 1))
    p.setBrush(QColor(90, 60, 40))
    for k in range(5):
        for x, y in [(cx - w / 2 + k * w / 4, cy + h / 2), (cx - w / 2 + k * w / 4, cy - h / 2)]:
            p.drawEllipse(P(x, y), 2.5, 2.5)
    # tents: white-and-red round tents and a long hall tent
    for tx, ty, r in [(cx - 40, cy + 25, 16), (cx + 5, cy + 30, 14), (cx + 45, cy + 20, 15), (cx - 35, cy - 28, 13)]:
        p.setPen(QPen(QColor(120, 40, 40), 1.2))
        p.setBrush(QColor(245, 242, 232))
        p.drawEllipse(P(tx, ty), r, r)
        p.setBrush(QColor(200, 40, 40))
        for k in range(0, 8, 2):
            p.drawPie(QRectF(P(tx, ty).x() - r, P(tx, ty).y() - r, 2 * r, 2 * r), k * 45 * 16, 45 * 16)
        p.setBrush(QColor(90, 30, 30))
        p.drawEllipse(P(tx, ty), 2, 2)
    p.setPen(QPen(QColor(120, 40, 40), 1.2))
    p.setBrush(QColor(236, 230, 214))
    hall = QRectF(P(cx + 5, cy - 10), P(cx + 60, cy - 45))
    p.drawRect(hall)
    p.drawLine(QPointF(hall.left(), hall.center().y()), QPointF(hall.right(), hall.center().y()))
    # entrance gap marker on the west side (towards the field)
    p.setPen(QPen(QColor(214, 24, 30), 2))
    p.drawLine(P(cx - w / 2 - 10, cy), P(cx - w / 2 + 10, cy))


LABEL_INK = QColor(30, 24, 18)


def label(p: QPainter, text: str, x: float, y: float, size: int, color: QColor = LABEL_INK,
          italic: bool = False) -> None:
    """Text centred on (x, y) metres with a light halo so it reads on any background."""
    font = QFont("DejaVu Serif", size)
    font.setBold(True)
    font.setItalic(italic)
    font.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, 1.0)
    path = QPainterPath()
    path.addText(0, 0, font, text)
    box = path.boundingRect()
    at = P(x, y)
    path.translate(at.x() - box.center().x(), at.y() - box.center().y())
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(QColor(255, 252, 236, 220), 4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                  Qt.PenJoinStyle.RoundJoin))
    p.drawPath(path)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(color)
    p.drawPath(path)


def draw_scale_and_north(p: QPainter) -> None:
    # scale bar: 100 m, in 4 alternating 25 m segments, bottom left
    x0, y0 = -770.0, -520.0
    panel = QRectF(P(x0 - 14, y0 + 32), P(x0 + 100 + 30, y0 - 10))
    p.setPen(QPen(QColor(60, 50, 40), 1))
    p.setBrush(QColor(255, 252, 240, 210))
    p.drawRoundedRect(panel, 4, 4)
    for k in range(4):
        p.setBrush(QColor(30, 30, 30) if k % 2 == 0 else QColor(255, 255, 255))
        p.drawRect(QRectF(P(x0 + 25 * k, y0 + 6), P(x0 + 25 * (k + 1), y0)))
    font = QFont("DejaVu Sans", 10)
    p.setFont(font)
    p.setPen(QColor(30, 30, 30))
    for m, text in ((0, "0"), (50, "50"), (100, "100 m")):
        at = P(x0 + m, y0 + 10)
        p.drawText(QRectF(at.x() - 24, at.y() - 18, 48, 16), Qt.AlignmentFlag.AlignCenter, text)
    # north arrow, top right
    cx, cy = 755.0, 480.0
    p.setPen(QPen(QColor(60, 50, 40), 1))
    p.setBrush(QColor(255, 252, 240, 210))
    p.drawEllipse(P(cx, cy - 8), 34, 34)
    tip, left, right, tail = P(cx, cy + 18), P(cx - 12, cy - 24), P(cx + 12, cy - 24), P(cx, cy - 14)
    p.setBrush(QColor(30, 30, 30))
    p.drawPolygon(QPolygonF([tip, left, tail]))
    p.setBrush(QColor(255, 255, 255))
    p.drawPolygon(QPolygonF([tip, right, tail]))
    p.setFont(QFont("DejaVu Sans", 13, QFont.Weight.Bold))
    p.setPen(QColor(30, 30, 30))
    at = P(cx, cy + 26)
    p.drawText(QRectF(at.x() - 15, at.y() - 20, 30, 20), Qt.AlignmentFlag.AlignCenter, "N")


def draw() -> QImage:
    rng = np.random.default_rng(SEED)
    img = background(rng)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    draw_hill(p)
    draw_forest(p, rng)
    draw_road(p)
    draw_river(p)
    draw_fort(p)
    draw_battle_boundary(p)
    draw_valhalla(p)
    fx, fy = ford_xy()
    label(p, "Fort", FORT[0], FORT[1] + 80, 20)
    label(p, "Ford", fx + 62, fy - 22, 17)
    label(p, "Forest", FOREST[0], FOREST[1], 22, QColor(236, 244, 220), italic=True)
    label(p, "Valhalla", VALHALLA[0], VALHALLA[1] + 84, 17, QColor(170, 20, 24))
    label(p, "battle area", BATTLE[0] + 80, BATTLE[3] - 16, 11, QColor(150, 30, 30), italic=True)
    label(p, "Emajõgi branch", river_x(-300) + 70, -300, 11, QColor(30, 70, 120), italic=True)
    draw_scale_and_north(p)
    p.end()
    return img


def write_georeference() -> None:
    """field.pgw in degrees (EPSG:4326) as the simulator places the field's metres, with field.prj and .aux.xml."""
    from controlroom.geo.crs import parse_crs, write_aux_xml, write_prj
    from controlroom.geo.worldfile import WorldFile, write_world_file
    from controlroom.sim.battle import M_PER_DEG

    deg_x = 1.0 / (M_PER_DEG * math.cos(math.radians(ORIGIN_LAT)))      # degrees of longitude per metre east
    deg_y = 1.0 / M_PER_DEG                                             # degrees of latitude per metre north
    world = WorldFile(PIXEL * deg_x, 0.0, 0.0, -PIXEL * deg_y, ORIGIN_LON + C * deg_x, ORIGIN_LAT + F * deg_y)
    png = HERE / "field.png"
    write_world_file(HERE / "field.pgw", world)
    wgs84 = parse_crs("EPSG:4326")
    write_prj(png, wgs84)
    write_aux_xml(png, wgs84)


def main() -> None:
    import sys

    if "--georeference-only" in sys.argv[1:]:
        write_georeference()
        print("wrote field.pgw, field.prj, field.png.aux.xml")
        return
    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 (fonts need the application)
    img = draw().convertToFormat(QImage.Format.Format_RGB888)
    png = HERE / "field.png"
    if not img.save(str(png), "PNG", 0):
        raise SystemExit(f"cannot write {png}")
    write_georeference()
    fx, fy = ford_xy()
    meta = {
        "projection": "simulator-metres",
        "description": "x metres east, y metres north of the origin (the image centre), placed on the ground as "
                       "the simulator places them (controlroom.sim.battle.to_latlon_e7); pixel (col, row) "
                       "centre is at x = C + col * pixel_size_m, y = F - row * pixel_size_m; field.pgw holds "
                       "that placing in degrees (EPSG:4326, named by field.prj and field.png.aux.xml)",
        "origin_lat": ORIGIN_LAT,
        "origin_lon": ORIGIN_LON,
        "pixel_size_m": PIXEL,
        "width_px": WIDTH,
        "height_px": HEIGHT,
        "extent_m": {"x_min": -HALF_W, "x_max": HALF_W, "y_min": -HALF_H, "y_max": HALF_H},
        "battle_area_m": {"x_min": BATTLE[0], "y_min": BATTLE[1], "x_max": BATTLE[2], "y_max": BATTLE[3]},
        "places": {
            "fort": list(FORT),
            "ford": [fx, fy],
            "valhalla": list(VALHALLA),
            "forest": list(FOREST),
        },
    }
    (HERE / "field.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write_places()
    print(f"wrote {png} ({png.stat().st_size} bytes), field.pgw, field.prj, field.png.aux.xml, field.json, "
          f"field.places.geojson")


# The named features of the field, as the report names places ("Ford, 40 m north-east; square E3").
PLACE_NAMES = {"fort": "Fort", "ford": "Ford", "valhalla": "Valhalla", "forest": "Forest"}


def write_places() -> None:
    """field.places.geojson: field.json's places as WGS84 points with names (kept in a game with the map)."""
    from controlroom.sim.battle import to_latlon_e7

    meta = json.loads((HERE / "field.json").read_text(encoding="utf-8"))
    origin = (meta["origin_lat"], meta["origin_lon"])
    features = []
    for key, (x, y) in meta["places"].items():
        lat, lon = to_latlon_e7(origin, x, y)
        features.append({"type": "Feature", "properties": {"name": PLACE_NAMES.get(key, key)},
                         "geometry": {"type": "Point", "coordinates": [lon / 1e7, lat / 1e7]}})
    doc = {"type": "FeatureCollection", "name": "field places", "features": features}
    (HERE / "field.places.geojson").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
