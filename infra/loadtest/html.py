"""The HTML page of a run: its verdict, the figures' tables and pygal SVG plots inline
(latency over time, percentiles per measure, throughput, freshness, errors by kind)."""

from html import escape
from typing import Any

import pygal  # type: ignore[import-untyped]

WIDTH, HEIGHT = 900, 320
STYLE = (
    "body{font-family:sans-serif;margin:2em;max-width:960px}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}th:first-child,td:first-child"
    "{text-align:left}.pass{color:#060}.fail{color:#a00}"
)


def _chart(kind: Any, title: str, height: int = HEIGHT, **config: Any) -> Any:
    # No JavaScript: the page must open offline and from a CI artifact.
    return kind(
        title=title,
        width=WIDTH,
        height=height,
        js=[],
        disable_xml_declaration=True,
        show_dots=False,
        x_label_rotation=0,
        **config,
    )


def _over_time(title: str, series: dict[str, Any], names: list[str], labels: list[str]) -> str:
    chart = _chart(
        pygal.Line,
        title,
        x_labels_major_every=max(1, len(series["second"]) // 10),
        show_minor_x_labels=False,
    )
    chart.x_labels = [str(s) for s in series["second"]]
    for name, label in zip(names, labels, strict=True):
        chart.add(label, series[name])
    return str(chart.render(is_unicode=True))


def _percentiles(report: dict[str, Any]) -> str:
    measures = {**report["latency"], "freshness after call": report["freshness"]["after_call"]}
    chart = _chart(
        pygal.HorizontalBar, "Percentiles per measure (ms)", height=60 + 40 * len(measures)
    )
    chart.x_labels = list(measures)
    for key in ("p50_ms", "p90_ms", "p99_ms", "max_ms"):
        chart.add(key.removesuffix("_ms"), [m[key] for m in measures.values()])
    return str(chart.render(is_unicode=True))


def _errors(report: dict[str, Any]) -> str:
    chart = _chart(pygal.HorizontalBar, "Errors by kind", truncate_legend=60)
    for kind, count in report["errors"].items():
        chart.add(kind, count)
    if not report["errors"]:
        chart.add("none", 0)
    return str(chart.render(is_unicode=True))


def _table(rows: dict[str, dict[str, Any]], first: str = "measure") -> str:
    if not rows:
        return "<p>none</p>"
    heads = list(next(iter(rows.values())))
    head = "".join(f"<th>{escape(h)}</th>" for h in [first, *heads])
    body = "".join(
        "<tr><td>" + escape(name) + "</td>" + "".join(f"<td>{row[h]}</td>" for h in heads) + "</tr>"
        for name, row in rows.items()
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def render(report: dict[str, Any]) -> str:
    series = report["series"]
    verdict = "pass" if report["passed"] else "fail"
    integrity = report["integrity"]
    fresh = report["freshness"]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>Load test {escape(report['run_id'])}</title><style>{STYLE}</style></head><body>",
        f"<h1>Load test {escape(report['run_id'])}: <span class='{verdict}'>{verdict}</span></h1>",
        f"<p>{escape(report['options']['url'])}, {report['elapsed_s']} s, "
        f"{report['error_total']} errors, window {escape(report['window'])}, "
        f"freshness received {fresh['received']} of {fresh['expected']} "
        f"(missed {fresh['missed']})</p>",
        f"<p>Integrity: {integrity['appointments_read']} appointments read back; "
        f"double-booked {len(integrity['double_booked'])}, lost answers "
        f"{len(integrity['lost_answers'])}, lost submits {len(integrity['lost_submits'])}, "
        f"lost payments {len(integrity['lost_payments'])}, "
        f"unreadable {len(integrity['unreadable'])}</p>",
        "<h2>Latency over time</h2>",
        _over_time(
            "Call latency (ms)", series, ["latency_p50_ms", "latency_p99_ms"], ["p50", "p99"]
        ),
        _over_time(
            "Freshness, call to every board (ms)",
            series,
            ["freshness_p50_ms", "freshness_max_ms"],
            ["p50", "max"],
        ),
        "<h2>Percentiles</h2>",
        _percentiles(report),
        _table(
            {
                **report["latency"],
                "freshness after ack": fresh["after_ack"],
                "freshness after call": fresh["after_call"],
            }
        ),
        "<h2>Throughput</h2>",
        _over_time(
            "Per second",
            series,
            ["requests", "pushes window", "holds"],
            ["requests", "window pushes", "holds"],
        ),
        _over_time(
            "Connections per second",
            series,
            ["connects", "reconnects", "resyncs"],
            ["connects", "reconnects", "resyncs"],
        ),
        "<h2>Errors</h2>",
        _errors(report),
        _table(
            {
                kind: {
                    "count": count,
                    "first message": escape(report["error_examples"].get(kind, "")),
                }
                for kind, count in report["errors"].items()
            },
            "kind",
        ),
        _over_time("Errors per second", series, ["errors"], ["errors"]),
        "<h2>Counts</h2>",
        _table({name: {"count": n} for name, n in report["counts"].items()}, "counter"),
        "</body></html>",
    ]
    return "\n".join(parts)
