"""Where the map's group labels go: beside their marker, never over another label (pure geometry, no Qt)."""

from __future__ import annotations

from typing import NamedTuple, Sequence

#: Candidate places of a label around its marker, in order of preference: right, left, above, below.
SIDES = ("right", "left", "above", "below")


class Box(NamedTuple):
    x: float        # left, in screen pixels
    y: float        # top (pixels grow downwards)
    w: float
    h: float

    def overlaps(self, other: "Box") -> bool:
        return not (self.x + self.w <= other.x or other.x + other.w <= self.x or
                    self.y + self.h <= other.y or other.y + other.h <= self.y)


def candidate(px: float, py: float, w: float, h: float, side: str, gap: float) -> Box:
    """The box of a w x h label on ``side`` of a marker at (px, py), ``gap`` pixels away."""
    if side == "right":
        return Box(px + gap, py - h / 2, w, h)
    if side == "left":
        return Box(px - gap - w, py - h / 2, w, h)
    if side == "above":
        return Box(px - w / 2, py - gap - h, w, h)
    return Box(px - w / 2, py + gap, w, h)


class _Grid:
    """Boxes bucketed by screen cells, so that a new box is checked only against its neighbours."""

    def __init__(self, cell: float = 64.0) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[Box]] = {}

    def _keys(self, box: Box):
        c = self.cell
        for i in range(int(box.x // c), int((box.x + box.w) // c) + 1):
            for j in range(int(box.y // c), int((box.y + box.h) // c) + 1):
                yield i, j

    def add(self, box: Box) -> None:
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(box)

    def hits(self, box: Box) -> bool:
        cells = self.cells
        return any(box.overlaps(other) for key in self._keys(box) for other in cells.get(key, ()))


def place_labels(anchors: Sequence[tuple[float, float]], sizes: Sequence[tuple[float, float]], gap: float = 9.0,
                 markers: Sequence[tuple[float, float]] = (), marker_radius: float = 6.0,
                 view: Box | None = None, obstacles: Sequence[Box] = ()) -> list[Box | None]:
    """A box for each label (in the order given, which is their priority), or None where none fits.

    A label goes on the first side of its marker where it overlaps no label
    already placed and no marker (``markers``, each a square of
    ``marker_radius``) and no ``obstacles`` (the legend); with ``view``, it
    must also lie inside the view.
    """
    taken = _Grid()
    for box in obstacles:
        taken.add(box)
    for mx, my in markers:
        taken.add(Box(mx - marker_radius, my - marker_radius, 2 * marker_radius, 2 * marker_radius))
    placed: list[Box | None] = []
    for (px, py), (w, h) in zip(anchors, sizes):
        chosen = None
        for side in SIDES:
            box = candidate(px, py, w, h, side, gap)
            if view is not None and not (box.x >= view.x and box.y >= view.y and box.x + box.w <= view.x + view.w
                                         and box.y + box.h <= view.y + view.h):
                continue
            if not taken.hits(box):
                chosen = box
                break
        placed.append(chosen)
        if chosen is not None:
            taken.add(chosen)
    return placed
