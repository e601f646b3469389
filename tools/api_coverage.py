"""Report how much of the Chainer v7 API checklist the importable ``chainer`` provides.

Usage::

    python tools/api_coverage.py [--checklist FILE] [--module chainer.functions]
                                 [--missing] [--mismatches] [--all]

For each section of the checklist (``docs/compat/chainer-7-api.txt``: one
``## module`` header per module, then one line per public name, and the
methods of the core classes at the end) it counts the names that exist in
the installed ``chainer`` and compares their signatures with
:func:`inspect.signature`: parameter names, order, kinds and defaults, loosely.

- *match*: the same parameters.
- *compatible*: every v7 call still works (extra optional parameters,
  ``**kwargs`` accepting a named argument, a default where v7 had none).
- *mismatch*: some v7 call would break (missing parameter, different default,
  other order, keyword-only where v7 took it positionally, ...).

``(module)`` entries that are only names a v7 module happened to import
(``chainer.reporter.tp``, ``chainer.gradient_check.testing``) are not
counted unless ``--all`` is given. The script always exits 0: it is a report.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CHECKLIST = ROOT / "docs" / "compat" / "chainer-7-api.txt"
METHODS_SECTION = "methods and properties of core classes"

# -- the checklist ---------------------------------------------------------------------------


@dataclass
class Entry:
    """One name of the checklist."""

    section: str  # the module of the section, or the class for methods
    name: str  # full dotted name (for a method: class name + "." + method)
    kind: str  # class, function, module, attribute, method, property
    signature: str | None = None  # the text between the parentheses, if any
    value: str | None = None  # the "<...>" of an attribute
    line: int = 0


def _closing(text: str, start: int) -> int:
    """Index of the parenthesis closing the one at ``text[start]`` (quote-aware)."""
    depth = 0
    quote = None
    i = start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError(f"unbalanced parentheses in {text!r}")


def _split_call(text: str) -> tuple[str, str | None]:
    """``"a.b(x, y=1) -> None"`` -> ``("a.b", "x, y=1")``; no parentheses -> signature None."""
    open_at = text.find("(")
    if open_at < 0:
        return text.strip(), None
    close_at = _closing(text, open_at)
    return text[:open_at].strip(), text[open_at + 1 : close_at]


def parse_checklist(text: str) -> list[Entry]:
    """Parse the checklist text into entries (comments and blank lines are skipped)."""
    entries: list[Entry] = []
    section = ""
    current_class: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("# "):
            continue
        if line.startswith("## "):
            section = line[3:].strip()
            current_class = None
            continue
        in_methods = section == METHODS_SECTION
        if line.startswith("    .") and in_methods:
            if current_class is None:
                raise ValueError(f"line {number}: method outside a class: {line!r}")
            body = line.strip()[1:]
            if body.endswith("(property)"):
                name = body[: -len("(property)")].strip()
                entries.append(Entry(current_class, f"{current_class}.{name}", "property",
                                     line=number))
            else:
                name, sig = _split_call(body)
                entries.append(Entry(current_class, f"{current_class}.{name}", "method", sig,
                                     line=number))
            continue
        if line.startswith("class "):
            name, sig = _split_call(line[len("class "):])
            if in_methods:
                current_class = name
                continue
            entries.append(Entry(section, name, "class", sig, line=number))
            continue
        if in_methods:
            raise ValueError(f"line {number}: unexpected line in the methods section: {line!r}")
        stripped = line.strip()
        if stripped.endswith("(module)") and "(" not in stripped[: -len("(module)")]:
            entries.append(Entry(section, stripped[: -len("(module)")].strip(), "module",
                                 line=number))
        elif "  = " in stripped and "(" not in stripped.split("  = ", 1)[0]:
            name, value = stripped.split("  = ", 1)
            entries.append(Entry(section, name.strip(), "attribute", value=value.strip(),
                                 line=number))
        elif "(" in stripped:
            name, sig = _split_call(stripped)
            entries.append(Entry(section, name, "function", sig, line=number))
        else:
            raise ValueError(f"line {number}: cannot parse {line!r}")
    return entries


# -- signatures --------------------------------------------------------------------------------
_REPR = "__api_coverage_repr__"


def _strip_reprs(text: str) -> str:
    """Replace ``<...>`` object reprs (nested, quote-aware) with a placeholder name."""
    out = []
    i = 0
    quote = None
    while i < len(text):
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 2
                continue
            if ch == quote:
                quote = None
            i += 1
            continue
        if ch in "'\"":
            quote = ch
            out.append(ch)
            i += 1
            continue
        if ch == "<":
            depth = 0
            inner_quote = None
            j = i
            while j < len(text):
                c = text[j]
                if inner_quote:
                    if c == inner_quote:
                        inner_quote = None
                elif c in "'\"":
                    inner_quote = c
                elif c == "<":
                    depth += 1
                elif c == ">":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            out.append(_REPR)
            i = j + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


@dataclass
class Param:
    """A parameter of a signature: its name, kind and default (as text, None for none)."""

    name: str
    kind: inspect._ParameterKind
    default: str | None = None  # the default's source text; "<repr>" when not literal

    @property
    def has_default(self) -> bool:
        return self.default is not None


def parse_signature(text: str | None) -> list[Param] | None:
    """The parameters of a checklist signature; None when unknown (``...`` or unparsable)."""
    if text is None:
        return None
    text = text.strip()
    if text == "...":
        return None
    try:
        tree = ast.parse(f"def _f({_strip_reprs(text)}): pass")
    except SyntaxError:
        return None
    args = tree.body[0].args  # type: ignore[attr-defined]
    params: list[Param] = []
    positional = [*args.posonlyargs, *args.args]
    defaults: list[Any] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for i, (arg, default) in enumerate(zip(positional, defaults)):
        kind = (inspect.Parameter.POSITIONAL_ONLY if i < len(args.posonlyargs)
                else inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params.append(Param(arg.arg, kind, _default_text(default)))
    if args.vararg is not None:
        params.append(Param(args.vararg.arg, inspect.Parameter.VAR_POSITIONAL))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        params.append(Param(arg.arg, inspect.Parameter.KEYWORD_ONLY, _default_text(default)))
    if args.kwarg is not None:
        params.append(Param(args.kwarg.arg, inspect.Parameter.VAR_KEYWORD))
    return params


def _default_text(node: ast.expr | None) -> str | None:
    if node is None:
        return None
    text = ast.unparse(node)
    return "<repr>" if _REPR in text else text


def _same_default(expected: str, actual: Any) -> bool:
    """Loose comparison of a checklist default (source text) with a real default value."""
    if expected == "<repr>":
        return True
    try:
        value = ast.literal_eval(expected)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        # A name such as numpy.float32: compare the last component with the object's name.
        last = expected.rsplit(".", 1)[-1]
        return getattr(actual, "__name__", None) == last or repr(actual) == expected
    try:
        if isinstance(value, float) and isinstance(actual, (int, float)):
            return abs(value - actual) <= 1e-12 * max(1.0, abs(value))
        if type(value) is not type(actual) and not (
                isinstance(value, (int, float)) and isinstance(actual, (int, float))):
            # 'default' == 'default' but not 0 == False; tuples vs lists are compatible.
            if isinstance(value, (tuple, list)) and isinstance(actual, (tuple, list)):
                return list(value) == list(actual)
            return False
        return bool(value == actual)
    except Exception:
        return False


@dataclass
class Comparison:
    """The result of comparing one signature."""

    status: str  # match, compatible, mismatch
    notes: list[str] = field(default_factory=list)


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def compare_signatures(expected: Sequence[Param], actual: inspect.Signature) -> Comparison:
    """Compare checklist parameters with a real signature (see the module docstring)."""
    breaking: list[str] = []
    permissive: list[str] = []
    act = list(actual.parameters.values())
    act_by_name = {p.name: p for p in act}
    act_pos = [p for p in act if p.kind in _POSITIONAL]
    has_varargs = any(p.kind == inspect.Parameter.VAR_POSITIONAL for p in act)
    has_varkw = any(p.kind == inspect.Parameter.VAR_KEYWORD for p in act)

    exp_pos = [p for p in expected if p.kind in _POSITIONAL]
    for i, e in enumerate(exp_pos):
        a = act_pos[i] if i < len(act_pos) else None
        if a is None or a.name != e.name:
            other = act_by_name.get(e.name)
            if other is not None and other.kind in _POSITIONAL:
                breaking.append(f"{e.name} is parameter {act_pos.index(other) + 1}, "
                                f"v7 has it at {i + 1}")
            elif other is not None and other.kind == inspect.Parameter.KEYWORD_ONLY:
                breaking.append(f"{e.name} is keyword-only; v7 takes it positionally")
            elif a is not None and e.kind == inspect.Parameter.POSITIONAL_ONLY:
                permissive.append(f"positional-only {e.name} is named {a.name}")
                _compare_default(e, a, breaking, permissive)
            elif a is None and has_varargs and (has_varkw or e.kind ==
                                                inspect.Parameter.POSITIONAL_ONLY):
                permissive.append(f"{e.name} goes to *args/**kwargs")
            else:
                breaking.append(f"no parameter {e.name}")
            continue
        if e.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD and \
                a.kind == inspect.Parameter.POSITIONAL_ONLY:
            breaking.append(f"{e.name} is positional-only; v7 also takes it by keyword")
        elif e.kind == inspect.Parameter.POSITIONAL_ONLY and \
                a.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD:
            permissive.append(f"{e.name} may also be given by keyword")
        _compare_default(e, a, breaking, permissive)

    for e in expected:
        if e.kind == inspect.Parameter.KEYWORD_ONLY:
            a = act_by_name.get(e.name)
            if a is None:
                if has_varkw:
                    permissive.append(f"keyword {e.name} goes to **kwargs")
                else:
                    breaking.append(f"no keyword parameter {e.name}")
            elif a.kind in (inspect.Parameter.KEYWORD_ONLY,
                            inspect.Parameter.POSITIONAL_OR_KEYWORD):
                if a.kind != e.kind:
                    permissive.append(f"{e.name} may also be given positionally")
                _compare_default(e, a, breaking, permissive)
            else:
                breaking.append(f"{e.name} cannot be given by keyword")
        elif e.kind == inspect.Parameter.VAR_POSITIONAL and not has_varargs:
            breaking.append(f"no *{e.name}")
        elif e.kind == inspect.Parameter.VAR_KEYWORD and not has_varkw:
            breaking.append(f"no **{e.name}")

    known = {e.name for e in expected}
    exp_has_varargs = any(e.kind == inspect.Parameter.VAR_POSITIONAL for e in expected)
    exp_has_varkw = any(e.kind == inspect.Parameter.VAR_KEYWORD for e in expected)
    for i, a in enumerate(act):
        if a.name in known:
            continue
        if a.kind in _POSITIONAL and i < len(exp_pos):
            continue  # already reported as a name difference at that position
        if a.kind == inspect.Parameter.VAR_POSITIONAL:
            if not exp_has_varargs:
                permissive.append(f"extra *{a.name}")
        elif a.kind == inspect.Parameter.VAR_KEYWORD:
            if not exp_has_varkw:
                permissive.append(f"extra **{a.name}")
        elif a.default is inspect.Parameter.empty:
            breaking.append(f"extra required parameter {a.name}")
        else:
            permissive.append(f"extra optional parameter {a.name}")
    if breaking:
        return Comparison("mismatch", breaking + permissive)
    if permissive:
        return Comparison("compatible", permissive)
    return Comparison("match")


def _compare_default(e: Param, a: inspect.Parameter, breaking: list[str],
                     permissive: list[str]) -> None:
    if e.has_default and a.default is inspect.Parameter.empty:
        breaking.append(f"{e.name} has no default (v7: {e.default})")
    elif not e.has_default and a.default is not inspect.Parameter.empty:
        permissive.append(f"{e.name} has a default ({a.default!r})")
    elif e.has_default and not _same_default(e.default, a.default):
        breaking.append(f"{e.name} defaults to {a.default!r} (v7: {e.default})")


# -- resolution ------------------------------------------------------------------------------


class Missing(Exception):
    """A name that does not resolve, with the reason."""


def resolve(name: str) -> Any:
    """Import or look up the dotted ``name`` (modules are imported as needed)."""
    parts = name.split(".")
    try:
        obj = importlib.import_module(parts[0])
    except ImportError as exc:
        raise Missing(f"cannot import {parts[0]}: {exc}") from None
    for i in range(1, len(parts)):
        try:
            obj = getattr(obj, parts[i])
            continue
        except AttributeError:
            pass
        except ImportError as exc:  # a lazily provided name whose package is missing
            raise Missing(str(exc)) from None
        prefix = ".".join(parts[: i + 1])
        try:
            obj = importlib.import_module(prefix)
        except ModuleNotFoundError as exc:
            if exc.name is not None and prefix.startswith(exc.name):
                raise Missing(f"no {prefix}") from None
            raise Missing(f"importing {prefix} failed: {exc}") from None
        except Exception as exc:
            raise Missing(f"importing {prefix} failed: {type(exc).__name__}: {exc}") from None
    return obj


def _is_top_level_module(name: str) -> bool:
    if name == "tp":  # ``import typing as tp`` in Chainer
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def is_incidental(entry: Entry) -> bool:
    """Whether a ``(module)`` entry is only a name its v7 module imported."""
    if entry.kind != "module":
        return False
    last = entry.name.rsplit(".", 1)[-1]
    try:
        obj = resolve(entry.name)
    except Missing:
        try:
            parent = resolve(entry.name.rsplit(".", 1)[0])
        except Missing:
            return _is_top_level_module(last)
        if not hasattr(parent, "__path__"):
            return True  # a plain module has no submodules: an imported name
        return _is_top_level_module(last)
    return getattr(obj, "__name__", entry.name) != entry.name


# -- the report ------------------------------------------------------------------------------


@dataclass
class Result:
    """The outcome for one entry."""

    entry: Entry
    present: bool
    status: str  # missing, present, match, compatible, mismatch, unchecked
    notes: list[str] = field(default_factory=list)


def _signature_of(entry: Entry, obj: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None


def check_entry(entry: Entry) -> Result:
    """Resolve one entry and compare its signature."""
    try:
        obj = resolve(entry.name)
    except Missing as exc:
        return Result(entry, False, "missing", [str(exc)])
    if entry.kind == "module":
        if not inspect.ismodule(obj):
            return Result(entry, True, "mismatch", [f"is a {type(obj).__name__}, not a module"])
        return Result(entry, True, "present")
    if entry.kind == "property":
        return Result(entry, True, "present")
    if entry.kind == "attribute":
        expected = (entry.value or "").strip("<>")
        if expected.isidentifier() and expected not in ("object",) and \
                type(obj).__name__ != expected:
            return Result(entry, True, "compatible",
                          [f"a {type(obj).__name__} (v7: {expected})"])
        return Result(entry, True, "present")
    if entry.kind == "class" and not inspect.isclass(obj):
        return Result(entry, True, "mismatch", [f"is a {type(obj).__name__}, not a class"])
    params = parse_signature(entry.signature)
    last = entry.name.rsplit(".", 1)[-1]
    if params is None or (entry.kind == "method" and last.startswith("__")
                          and last.endswith("__")):
        # Unknown v7 signature, or an operator method the interpreter calls: existence only.
        return Result(entry, True, "present")
    if inspect.ismethod(obj) and params and params[0].name in ("cls", "self") and \
            params[0].kind in _POSITIONAL:
        params = params[1:]  # a classmethod looked up on its class is already bound
    signature = _signature_of(entry, obj)
    if signature is None:
        return Result(entry, True, "unchecked", ["no signature to inspect"])
    comparison = compare_signatures(params, signature)
    return Result(entry, True, comparison.status, comparison.notes)


def _row_key(entry: Entry) -> str:
    if entry.kind in ("method", "property"):
        return f"{entry.section} (methods)"
    return entry.section


def _selected(entry: Entry, module: str | None) -> bool:
    if module is None:
        return True
    key = entry.section
    return key == module or key.startswith(module + ".")


COLUMNS = ("names", "present", "missing", "checked", "match", "compatible", "mismatch")


def summarize(results: Iterable[Result]) -> dict[str, dict[str, int]]:
    """Counts per table row (in checklist order)."""
    rows: dict[str, dict[str, int]] = {}
    for r in results:
        row = rows.setdefault(_row_key(r.entry), dict.fromkeys(COLUMNS, 0))
        row["names"] += 1
        if not r.present:
            row["missing"] += 1
            continue
        row["present"] += 1
        if r.status in ("match", "compatible", "mismatch"):
            row["checked"] += 1
            row[r.status] += 1
    return rows


def format_table(rows: dict[str, dict[str, int]]) -> str:
    """The per-module table with a total row."""
    total = dict.fromkeys(COLUMNS, 0)
    for counts in rows.values():
        for c in COLUMNS:
            total[c] += counts[c]
    width = max([len("module"), len("TOTAL"), *(len(k) for k in rows)])
    header = f"{'module':<{width}}  " + "  ".join(f"{c:>10}" for c in COLUMNS) + "   present%"
    lines = [header, "-" * len(header)]

    def line(name: str, counts: dict[str, int]) -> str:
        pct = 100.0 * counts["present"] / counts["names"] if counts["names"] else 100.0
        cells = "  ".join(f"{counts[c]:>10}" for c in COLUMNS)
        return f"{name:<{width}}  {cells}   {pct:7.1f}%"

    for name, counts in rows.items():
        lines.append(line(name, counts))
    lines.append("-" * len(header))
    lines.append(line("TOTAL", total))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checklist", type=Path, default=DEFAULT_CHECKLIST,
                        help="the API checklist (default: docs/compat/chainer-7-api.txt)")
    parser.add_argument("--module", help="only sections of this module and its submodules")
    parser.add_argument("--missing", action="store_true", help="list the missing names")
    parser.add_argument("--mismatches", action="store_true",
                        help="list the signature mismatches with their reasons")
    parser.add_argument("--compatible", action="store_true",
                        help="list the compatible (not identical) signatures too")
    parser.add_argument("--all", action="store_true",
                        help="also count modules that v7 modules merely imported")
    args = parser.parse_args(argv)

    try:
        entries = parse_checklist(args.checklist.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"api_coverage: cannot read the checklist {args.checklist}: {exc}")
        return 0
    entries = [e for e in entries if _selected(e, args.module)]
    incidental = [] if args.all else [e for e in entries if is_incidental(e)]
    skipped = {id(e) for e in incidental}
    results = [check_entry(e) for e in entries if id(e) not in skipped]
    if not results:
        print(f"no checklist entries for {args.module!r}")
        return 0
    print(format_table(summarize(results)))
    if incidental:
        print(f"({len(incidental)} module names that v7 modules merely import are not counted; "
              "--all counts them)")
    if args.missing:
        print("\nMissing:")
        for r in results:
            if not r.present:
                print(f"  {r.entry.name}  [{r.entry.kind}] {'; '.join(r.notes)}")
    if args.mismatches or args.compatible:
        wanted = {"mismatch"} | ({"compatible"} if args.compatible else set())
        print("\nSignatures:")
        for r in results:
            if r.status in wanted:
                print(f"  {r.status:<10} {r.entry.name}({r.entry.signature or ''}): "
                      f"{'; '.join(r.notes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
