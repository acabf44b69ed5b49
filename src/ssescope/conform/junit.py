"""``conform --junit FILE``: the result as JUnit XML, one testcase per check.

The shape is the one CI systems read (Jenkins, GitLab, GitHub's test reporters): one
``<testsuite>`` in a ``<testsuites>`` root, a ``<testcase>`` per check (its ``classname``
the check's severity and first id part, its ``name`` the id), ``<skipped>`` for a check
that applied to no exchange, and ``<failure>`` holding the evidence of a failed one. A
failed SHOULD is a failure too, with ``type="SHOULD"``: the exit code, not the XML, says
that only MUSTs fail the run.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from .runner import CheckResult, ConformResult

__all__ = ["SUITE_NAME", "junit_xml"]

SUITE_NAME = "ssescope conform"
"""The ``<testsuite>``'s name."""


def _evidence_text(result: CheckResult) -> str:
    lines = [f"{result.check.severity} {result.check.id}: {result.check.rule}"]
    lines.append(f"source: {result.check.source}")
    lines += [f"{e.where}: {e.excerpt}" for e in result.evidence]
    return "\n".join(lines)


def _case(suite: ET.Element, result: CheckResult) -> None:
    check = result.check
    case = ET.SubElement(
        suite,
        "testcase",
        classname=f"conform.{check.severity}.{check.id.split('.', 1)[0]}",
        name=check.id,
        time="0",
    )
    if result.verdict == "skip":
        ET.SubElement(case, "skipped", message=result.reason)
    elif result.verdict == "fail":
        first = result.evidence[0].excerpt if result.evidence else check.title
        failure = ET.SubElement(case, "failure", message=first, type=check.severity)
        failure.text = _evidence_text(result)


def junit_xml(result: ConformResult) -> str:
    """The JUnit XML document of ``result`` (UTF-8 text, with its XML declaration)."""
    counts = {
        "tests": len(result.checks),
        "failures": len(result.failed()),
        "errors": 0,
        "skipped": sum(1 for r in result.checks if r.verdict == "skip"),
    }
    attributes = {"name": SUITE_NAME, **{k: str(v) for k, v in counts.items()}}
    root = ET.Element("testsuites", attributes)
    suite = ET.SubElement(root, "testsuite", {**attributes, "time": "0"})
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(properties, "property", name="exchanges", value=str(result.exchanges))
    for r in result.checks:
        _case(suite, r)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"
