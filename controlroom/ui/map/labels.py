"""Where the map's group labels go: beside their marker, never over another label (pure geometry, no Qt)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

#: Candidate places of a label around its marker, in order of preference: right, left, above, below.
SIDES = ("right", "left", "above", "below")


class Box(NamedTuple):
    x: float        # left, in screen pixels
    y: float        # top (pixels grow downwards)
    w: float
    h: float

    def overlaps(self, other: Box) -> bool:
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


def place_labels(anchors: Sequence[tuple[float, float]], sizes: Sequence[tuple[float, float]], gap: float = 9.0,
                 markers: Sequence[tuple[float, float]] = (), marker_radius: float = 6.0,
                 view: Box | None = None, obstacles: Sequence[Box] = ()) -> list[Box | None]:
    """A box for each label (in the order given, which is their priority), or None where none fits: all of
    :func:`placing_labels` at once."""
    placed: list[Box | None] = []
    steps = placing_labels(anchors, sizes, gap, markers, marker_radius, view, obstacles, step=0)
    for placed in steps:  # noqa: B007 - the last is the answer
        pass
    return placed


def placing_labels(anchors: Sequence[tuple[float, float]], sizes: Sequence[tuple[float, float]], gap: float = 9.0,
                   markers: Sequence[tuple[float, float]] = (), marker_radius: float = 6.0,
                   view: Box | None = None, obstacles: Sequence[Box] = (),
                   step: int = 100) -> Iterator[list[Box | None]]:
    """The labels placed ``step`` at a time (0: all at once): yields the boxes placed so far once the
    markers are entered, then after each ``step`` labels, and last all of them (the list's length tells
    whether it is done).  The window places 400 groups' labels in a few turns of its event loop, one step
    each (2-4 ms), not in one block of 10-25 ms.

    A box for each label (in the order given, which is their priority), or None where none fits.

    A label goes on the first side of its marker (:data:`SIDES`) where it
    overlaps no label already placed and no marker (``markers``, each a square
    of ``marker_radius``) and no ``obstacles`` (the legend); with ``view``, it
    must also lie inside the view.  Boxes are kept in a grid of screen cells,
    so that a box is checked only against its neighbours (with 400 groups, most
    labels find no room: every side of each is tried).
    """
    cell = 64.0
    cells: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
    get = cells.get

    def add(x0: float, y0: float, x1: float, y1: float) -> None:
        box = (x0, y0, x1, y1)
        for i in range(int(x0 // cell), int(x1 // cell) + 1):
            for j in range(int(y0 // cell), int(y1 // cell) + 1):
                kept = get((i, j))
                if kept is None:
                    cells[(i, j)] = [box]
                else:
                    kept.append(box)

    for b in obstacles:
        add(b.x, b.y, b.x + b.w, b.y + b.h)
    r = marker_radius
    for mx, my in markers:
        add(mx - r, my - r, mx + r, my + r)
    placed: list[Box | None] = []
    if step and anchors:
        yield placed                    # (400 markers entered: a step of its own)
    inf = float("inf")
    vx0, vy0, vx1, vy1 = ((view.x, view.y, view.x + view.w, view.y + view.h) if view is not None
                          else (-inf, -inf, inf, inf))
    for (px, py), (w, h) in zip(anchors, sizes):
        if step and placed and len(placed) % step == 0:
            yield placed
        chosen = None
        # The sides in the order of SIDES: right, left, above, below (as candidate() places them).
        for x0, y0 in ((px + gap, py - h / 2), (px - gap - w, py - h / 2), (px - w / 2, py - gap - h),
                       (px - w / 2, py + gap)):
            x1, y1 = x0 + w, y0 + h
            if x0 < vx0 or y0 < vy0 or x1 > vx1 or y1 > vy1:
                continue
            hit = False
            for i in range(int(x0 // cell), int(x1 // cell) + 1):
                for j in range(int(y0 // cell), int(y1 // cell) + 1):
                    for a, b, c, d in get((i, j), ()):
                        if x0 < c and a < x1 and y0 < d and b < y1:      # as Box.overlaps: touching is not
                            hit = True
                            break
                    if hit:
                        break
                if hit:
                    break
            if not hit:
                chosen = Box(x0, y0, w, h)
                break
        placed.append(chosen)
        if chosen is not None:
            add(x0, y0, x1, y1)
    yield placed
