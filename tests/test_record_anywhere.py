"""Recording on any line of a function finds that function — in the shapes real code takes —
and what is recorded resolves ``ok`` in the file it was recorded in, twins included: two
identical definitions are told apart by where they sit, and stay apart through edits."""

from __future__ import annotations

import pytest

from tether.core import anchors as A
from tether.core.languages import for_path
from tether.core.syntax import SourceFile

JS = '''res.set = res.header = function header(field, val) {
  if (arguments.length === 2) {
    var value = Array.isArray(val) ? val.map(String) : String(val);
    this.setHeader(field, value);
  }
  return this;
};

var stringToPath = memoizeCapped(function(string) {
  var result = [];
  return result;
});

defineGetter(req, 'fresh', function () {
  var status = this.res.statusCode;
  return status >= 200;
});

exports.ZodISODate = core.$constructor("ZodISODate", (inst, def) => {
  inst.init(def);
});

var __exportStar = (this && this.__exportStar) || function (m, exports) {
  for (var p in m) exports[p] = m[p];
};

describe("parsing", () => {
  test("rejects floats", () => {
    expect(parse("1.5")).toThrow();
  });
});

export default function () {
  return 1;
}
'''


def names_at_every_body_line(text: str, path: str) -> dict[int, str]:
    src = SourceFile(text, for_path(path))
    out = {}
    for line, s in enumerate(text.split("\n")):
        if s.startswith(" ") and s.strip():
            a = A.record(src, path, line, len(s) - len(s.lstrip()))
            assert A.resolve(a, src, src).state == A.OK, (line, a.name)
            out[line + 1] = a.name
    return out


def test_every_line_of_every_function_shape_finds_its_function():
    names = names_at_every_body_line(JS, "lib/response.js")

    def at(needle: str) -> str:
        return names[next(i for i, s in enumerate(JS.split("\n")) if needle in s) + 1]
    assert at("if (arguments.length") == at("return this;") == "res.set"  # a.b = a.c = function …
    assert at("var result = []") == "stringToPath"  # a variable holding a wrapped function
    assert at("var status") == "fresh"  # a callback registered under a string
    assert at("inst.init(def)") == "exports.ZodISODate"
    assert at("for (var p in m)") == "__exportStar"
    assert at("test(\"rejects floats\"") == at("expect(parse") == "parsing"  # a test inside is the describe's
    assert at("return 1;") == "default"


def test_a_python_overload_stub_records_its_implementation():
    text = ('from typing import overload\n\n\n@overload\ndef get(\n    key: str,\n) -> str: ...\n\n\n'
            'def get(key):\n    return key\n')
    src = SourceFile(text, for_path("m.py"))
    a = A.record(src, "m.py", 5, 4)
    assert (a.name, a.range.sl) == ("get", 9)
    method = ("from typing import overload\n\n\nclass Box:\n    @overload\n    def __init__(\n        self, key: str,\n"
              "    ) -> None: ...\n\n    def __init__(self, key):\n        self.key = key\n\n    def size(self):\n"
              "        return 1\n")
    src = SourceFile(method, for_path("box.py"))
    a = A.record(src, "box.py", 6, 8)  # a parameter of the stub: the method, not its class
    assert (a.name, a.range.sl) == ("Box.__init__", 9)


TWINS = '''import sys

if sys.platform == "win32":
    class _StrPath:
        def __init__(self, path):
            self.path = path
else:
    class _StrPath:
        def __init__(self, path):
            self.path = path
'''


@pytest.mark.parametrize("line", [4, 8])  # the twin under `if`, the twin under `else` (0-based)
def test_identical_twins_in_two_branches_resolve_ok_where_recorded_and_through_edits(line: int):
    src = SourceFile(TWINS, for_path("paths.py"))
    a = A.record(src, "paths.py", line, 8)
    assert a.name == "_StrPath.__init__"
    assert A.resolve(a, src, src).state == A.OK
    assert A.resolve(a, src).state == A.OK  # no cache: the note alone, the file unchanged
    edited = "import os\n" + TWINS.replace('if sys.platform == "win32":', '# windows paths\nif sys.platform == "win32":')
    res = A.resolve(a, SourceFile(edited, for_path("paths.py")), src)
    assert res.state == A.MOVED and res.range.sl == line + 2
