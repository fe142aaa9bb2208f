"""The YAML parser behind `yamlfile.load_yaml`: PyYAML's events checked, its nodes built into Lined containers.

Its own module so that PyYAML is imported when a document is read, not by every module that imports a reader
(`pbem dm new` reads none: #34).
"""
from __future__ import annotations

from typing import Any

import yaml

from .fields import is_whole
from .problems import FormatError, LinedDict, LinedList, Problem
from .yaml_words import in_words
from .yamlfile import MAX_DEPTH, MAX_INT

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed: ten times faster on a big file
_INT_TAG = "tag:yaml.org,2002:int"
_MAX_INT_TEXT = 80  # a number written longer (underscores aside) is too big, unread: base-60 parts cost quadratic time


def parse(text: str, source: str) -> Any:
    """One YAML document as LinedDict/LinedList/scalars (`yamlfile.load_yaml`)."""
    try:
        depth = 0
        for event in yaml.parse(text, Loader=_LOADER):
            _refuse_unsafe(event, source)
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise FormatError([Problem(source, _line(event), "", f"nested more than {MAX_DEPTH} levels deep")])
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        loader = _LOADER(text)
        try:
            node = loader.get_single_node()
            problems: list[Problem] = []
            document = None if node is None else _build(node, loader, source, problems)
        finally:
            loader.dispose()
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 1 if mark else None
        if "nesting depth" in str(getattr(err, "problem", None) or err):  # PyYAML 6.0.4 has its own depth limit: say it as for ours
            raise FormatError([Problem(source, line, "", f"nested more than {MAX_DEPTH} levels deep")]) from None
        line, reason = in_words(err, text)
        raise FormatError([Problem(source, line, "", reason)]) from None
    if problems:
        raise FormatError(problems)
    return document


def _line(event: yaml.Event) -> int | None:
    """The line (from 1) a parser event starts on, when the parser says."""
    return None if event.start_mark is None else event.start_mark.line + 1


def _refuse_unsafe(event: yaml.Event, source: str) -> None:
    line = _line(event)
    if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
        raise FormatError([Problem(source, line, "", "YAML anchors and aliases are not accepted")])
    tag = getattr(event, "tag", None)
    if tag not in (None, "!"):
        raise FormatError([Problem(source, line, "", f"YAML tags are not accepted ({tag})")])


def _build(node: yaml.Node, loader: Any, source: str, problems: list[Problem], where: str = "") -> Any:
    """The node as Lined containers; a bad or repeated key, or a number out of bounds, goes to `problems` (every
    one is reported, with its line and the field it is in)."""
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result = LinedDict()
        result.line, result.lines = line, {}
        for key_node, value_node in node.value:
            key = _build(key_node, loader, source, problems, where)
            key_line = key_node.start_mark.line + 1
            if not isinstance(key, (str, int, bool)) or key is None:
                problems.append(Problem(source, key_line, "", "a key must be plain text"))
            elif key in result:
                problems.append(Problem(source, key_line, str(key), f"given twice (first on line {result.lines[key]})"))
            else:
                result[key] = _build(value_node, loader, source, problems, _field(where, key))
                result.lines[key] = key_line
        return result
    if isinstance(node, yaml.SequenceNode):
        items = LinedList(_build(item, loader, source, problems, f"{where}[{index + 1}]")
                          for index, item in enumerate(node.value))
        items.line, items.lines = line, [item.start_mark.line + 1 for item in node.value]
        return items
    text = str(node.value)
    if node.tag == _INT_TAG and len(text.replace("_", "")) > _MAX_INT_TEXT:
        problems.append(Problem(source, line, where, f"a whole number of {len(text):,} characters: too large "
                                                     f"(at most {MAX_INT:,})"))
        return None
    try:
        value = loader.construct_object(node, deep=True)
    except ValueError:  # a decimal of thousands of digits (Python refuses to convert more than 4,300)
        problems.append(Problem(source, line, where, f"a value too long to read ({len(text):,} characters)"))
        return None
    if is_whole(value) and abs(value) > MAX_INT:
        problems.append(Problem(source, line, where, f"{text[:24]}{'…' if len(text) > 24 else ''} is too large "
                                                     f"a whole number (at most {MAX_INT:,})"))
        return None
    return value


def _field(where: str, key: Any) -> str:
    """A field's name in a problem: the keys from the document's top, dotted."""
    return f"{where}.{key}" if where else str(key)
