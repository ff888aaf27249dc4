"""Firmware source as a board gets it: without comments and docstrings, every line where it was.

A board's copy is for running, not reading: a third of the firmware's bytes
are comments and docstrings, and every byte crosses a 115,200-baud line when
a board is provisioned.  Each comment and docstring line becomes an empty
line (a docstring that is its body's only statement becomes ``pass``), so a
traceback on the board names the same lines as the source in hardware/.  A
source the result of which does not parse back to the same code is sent
whole.
"""

from __future__ import annotations

import ast
import io
import tokenize


def slim(source: bytes) -> bytes:
    """``source`` without comments and docstrings, line numbers kept; ``source`` itself if anything is odd."""
    try:
        text = source.decode("utf-8")
        tree = ast.parse(text)
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (UnicodeDecodeError, SyntaxError, tokenize.TokenError, ValueError):
        return source
    lines = text.split("\n")
    cut: dict[int, int] = {}                     # line index -> column where a comment starts
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            cut[tok.start[0] - 1] = tok.start[1]
    for i, col in cut.items():
        lines[i] = lines[i][:col].rstrip()
    for node in ast.walk(tree):
        doc = _docstring(node)
        if doc is None:
            continue
        body = node.body                         # type: ignore[attr-defined]  # (a node with a docstring has one)
        first, last = doc.lineno - 1, (doc.end_lineno or doc.lineno) - 1
        if lines[first][:doc.col_offset].strip() or lines[last].rstrip()[doc.end_col_offset or 0:].strip():
            continue                             # shares a line with other code: left as it is
        for i in range(first, last + 1):
            lines[i] = ""
        if len(body) == 1:
            lines[first] = " " * doc.col_offset + "pass"
    out = "\n".join(line.rstrip() for line in lines)
    try:
        same = ast.dump(_without_docstrings(ast.parse(out))) == ast.dump(_without_docstrings(tree))
    except SyntaxError:
        same = False
    return out.encode("utf-8") if same else source


def _without_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` with every docstring made ``pass`` (what ``slim`` does to them), to compare code with code."""
    for node in ast.walk(tree):
        if _docstring(node) is not None:
            body = node.body                     # type: ignore[attr-defined]
            if len(body) == 1:
                body[0] = ast.Pass()
            else:
                del body[0]
    return tree


def _docstring(node: ast.AST) -> ast.Expr | None:
    """The docstring statement of a module, class or function (None: it has none)."""
    if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) or not node.body:
        return None
    doc = node.body[0]
    if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and isinstance(doc.value.value, str):
        return doc
    return None
