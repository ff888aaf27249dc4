"""Tests of the MicroPython harness itself (run_mpy.mjs + mpy.py)."""

import textwrap

import pytest


@pytest.mark.micropython
def test_runs_real_micropython(micropython):
    out = micropython("import sys\nprint(sys.implementation.name)\n")
    assert out == "micropython\n"


@pytest.mark.micropython
def test_returns_stdout_only_and_keeps_partial_last_line(micropython):
    script = "import sys\nprint('a')\nprint('warn', file=sys.stderr)\nprint('b', end='')\n"
    assert micropython(script) == "a\nb"


@pytest.mark.micropython
def test_modules_are_importable(micropython, tmp_path):
    mod = tmp_path / "helper_mod.py"
    mod.write_text("def double(x):\n    return 2 * x\n")
    pkg = tmp_path / "helper_pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("NAME = 'pkg'\n")
    (pkg / "sub" / "__init__.py").write_text("from helper_mod import double\nVALUE = double(21)\n")
    out = micropython(
        "import helper_mod, helper_pkg\nfrom helper_pkg.sub import VALUE\n"
        "print(helper_mod.double(4), helper_pkg.NAME, VALUE)\n",
        [mod, pkg],
    )
    assert out == "8 pkg 42\n"


@pytest.mark.micropython
def test_python_exception_fails_with_traceback_and_output(micropython, tmp_path):
    mod = tmp_path / "boom.py"
    mod.write_text("def explode():\n    raise ValueError('kaboom')\n")
    with pytest.raises(AssertionError) as excinfo:
        micropython("import boom\nprint('before')\nboom.explode()\n", [mod])
    message = str(excinfo.value)
    assert "before" in message
    assert "ValueError: kaboom" in message
    assert 'boom.py", line 2' in message


@pytest.mark.micropython
def test_failed_assert_in_script_fails(micropython):
    with pytest.raises(AssertionError, match="AssertionError: nope"):
        micropython("assert 1 == 2, 'nope'\n")


@pytest.mark.micropython
def test_syntax_error_fails(micropython):
    with pytest.raises(AssertionError, match="SyntaxError"):
        micropython("x = (\n")


@pytest.mark.micropython
@pytest.mark.parametrize("code, ok", [("0", True), ("None", True), ("3", False), ("'msg'", False)])
def test_system_exit(micropython, code, ok):
    script = f"import sys\nsys.exit({code})\n"
    if ok:
        assert micropython(script) == ""
    else:
        with pytest.raises(AssertionError, match="exit status"):
            micropython(script)


@pytest.mark.micropython
def test_timeout(micropython):
    with pytest.raises(AssertionError, match="timed out"):
        micropython("while True:\n    pass\n", timeout=2)


@pytest.mark.micropython
def test_missing_module_file_is_reported(micropython, tmp_path):
    with pytest.raises(FileNotFoundError):
        micropython("print(1)\n", [tmp_path / "missing.py"])


@pytest.mark.micropython
def test_no_cpython_only_features(micropython):
    # Guards against accidentally running CPython: these differ in MicroPython.
    out = micropython(
        textwrap.dedent(
            """
            try:
                import dataclasses
                print('dataclasses')
            except ImportError:
                print('no dataclasses')
            print(hasattr('', 'removeprefix'))
            """
        )
    )
    assert out.split() == ["no", "dataclasses", "False"]


def test_missing_node_is_detected(mpy, monkeypatch):
    monkeypatch.setattr(mpy, "_node", lambda: None)
    assert mpy.micropython_available() is False
    assert "Node.js" in mpy.unavailable_reason()


def test_unavailable_interpreter_is_detected(mpy, monkeypatch, tmp_path):
    monkeypatch.setattr(mpy, "_node", lambda: "/usr/bin/node")  # whether or not node is installed
    monkeypatch.setenv("MICROPYTHON_MJS", str(tmp_path / "nowhere.mjs"))
    assert mpy.micropython_available() is False
    assert "npm ci --prefix hardware" in mpy.unavailable_reason()
    with pytest.raises(RuntimeError, match="not installed"):
        mpy.run_micropython("print(1)\n")


def test_unavailable_interpreter_skips_or_fails(mpy, monkeypatch, tmp_path):
    monkeypatch.setattr(mpy, "_node", lambda: "/usr/bin/node")
    monkeypatch.setenv("MICROPYTHON_MJS", str(tmp_path / "nowhere.mjs"))
    monkeypatch.delenv("MICROPYTHON_REQUIRED", raising=False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="npm ci --prefix hardware"):
        mpy._skip_or_fail(mpy.unavailable_reason())
    monkeypatch.setenv("MICROPYTHON_REQUIRED", "1")
    with pytest.raises(pytest.fail.Exception, match="MICROPYTHON_REQUIRED"):
        mpy._skip_or_fail(mpy.unavailable_reason())
    monkeypatch.delenv("MICROPYTHON_REQUIRED")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        mpy._skip_or_fail(mpy.unavailable_reason())
