# A part of the `acmesim plot` script: `acmesim report`, one self-contained HTML page for a results
# directory. The page holds the headline numbers, the figures `acmesim plot` draws (inline SVG) and,
# for a plan, the answer with its trade-offs. Nothing on it is fetched: no scripts, no fonts, no
# images by address, so it opens offline and can be mailed as one file. It uses the names the parts
# before it define (see acmesim_plot.py).


class InlineFigures:
    """A figure writer (the interface of FigureWriter) that keeps each figure as SVG text for the
    page instead of writing a file."""

    def __init__(self):
        self.figures = []  # (name, svg text), in the order drawn

    def save(self, fig, name):
        buffer = io.StringIO()
        try:
            fig.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
        finally:
            plt.close(fig)
        text = buffer.getvalue()
        self.figures.append((name, text[text.index("<svg"):]))  # the XML prolog and doctype are not HTML


# --- numbers as the page shows them ------------------------------------------------------------

def shown_number(value):
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    value = float(value)
    if value == 0:
        return "0"
    size = abs(value)
    if size >= 1e12 or size < 1e-3:
        return f"{value:.3g}"
    if size >= 100:
        return f"{value:,.0f}"
    return f"{value:,.3g}"


def shown_duration(seconds):
    """Seconds, with hours or days beside them when that reads better."""
    text = f"{shown_number(seconds)} s"
    if seconds is not None and math.isfinite(seconds):
        divisor, unit = time_unit([seconds])
        if divisor > 1:
            text += f" ({seconds / divisor:,.1f} {unit})"
    return text


def shown_value(value, unit, compact=False):
    """A value of the metric table's `unit` as the page shows it; `compact` leaves out the hours or
    days beside seconds (in a table of many)."""
    if value is None:
        return "–"
    if unit == "s":
        return f"{shown_number(value)} s" if compact else shown_duration(value)
    if unit == "share":
        return f"{100 * value:.1f}%"
    if unit == "ratio":
        return shown_number(value)
    return f"{shown_number(value)} {unit}".rstrip()


def shown_change(change):
    return "–" if change is None else f"{100 * change:+.1f}%"


def metric_facts(name):
    """The metric table's row for a metric name: {unit, better, help, headline}; {} if undeclared."""
    return next((m for m in FACTS["metrics"] if m["name"] == name), {})


# --- HTML pieces ---------------------------------------------------------------------------------

def esc(text):
    return html.escape(str(text), quote=True)


def table(header, rows, classes=None):
    """An HTML table; each row a list of cells already escaped (or built from escaped parts);
    classes[i], when given, is row i's class."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = []
    for i, row in enumerate(rows):
        css = f' class="{classes[i]}"' if classes and classes[i] else ""
        body.append(f"<tr{css}>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    return f'<table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def cards(items):
    """Headline numbers as cards: [(label, value text, note or "")]."""
    out = []
    for label, value, note_text in items:
        extra = f'<div class="note">{esc(note_text)}</div>' if note_text else ""
        out.append(f'<div class="card"><div class="label">{esc(label)}</div>'
                   f'<div class="value">{esc(value)}</div>{extra}</div>')
    return f'<div class="cards">{"".join(out)}</div>'


def section(title, body, anchor):
    return f'<section id="{anchor}"><h2>{esc(title)}</h2>{body}</section>'


def judged_class(better_side):
    """A row's class by whether its change is for the better by the metric's direction."""
    return {"better": "better", "worse": "worse", "neither": "changed"}.get(better_side, "")


REPORT_STYLE = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;margin:0;color:#1d2330;
background:#fff;line-height:1.45}
header{background:#1f3a5f;color:#fff;padding:18px 28px}
header h1{margin:0;font-size:22px}header p{margin:4px 0 0;color:#c9d6e8;font-size:14px}
main{max-width:1180px;margin:0 auto;padding:8px 28px 40px}
h2{font-size:18px;border-bottom:2px solid #dfe5ee;padding-bottom:4px;margin-top:28px}
.cards{display:flex;flex-wrap:wrap;gap:12px}
.card{border:1px solid #d5dce6;border-radius:6px;padding:10px 14px;min-width:150px;background:#f7f9fc}
.card .label{font-size:12px;color:#556}.card .value{font-size:20px;font-weight:600}
.card .note{font-size:12px;color:#556}
table{border-collapse:collapse;font-size:13px;margin:8px 0;width:100%}
th,td{border-bottom:1px solid #e3e8ef;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef2f7}td{font-variant-numeric:tabular-nums}
tr.better td{background:#e7f5ea}tr.worse td{background:#fdecea}tr.changed td{background:#eaf1fb}
tr.answer td{font-weight:600;background:#fff7d6}
figure{margin:16px 0;padding:0}figure svg{max-width:100%;height:auto}
figcaption{font-size:13px;color:#445}
details{margin:10px 0}summary{cursor:pointer;font-weight:600}
pre{background:#f4f6f9;padding:8px;overflow-x:auto;font-size:12px}
.flag{color:#b42318;font-weight:700}.ok{color:#1a7f37;font-weight:600}.miss{color:#b42318;font-weight:600}
footer{font-size:12px;color:#667;margin-top:32px}
"""


def page(title, subtitle, sections, results):
    version = FACTS.get("program", {}).get("version", "")
    return ("<!doctype html>\n"
            f'<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<style>{REPORT_STYLE}</style></head><body>"
            f"<header><h1>{esc(title)}</h1><p>{esc(subtitle)}</p></header><main>"
            + "".join(sections)
            + f"<footer>Written by acmesim {esc(version)} report from {esc(results)}. The page is self-contained: "
              "its figures are inline and nothing is fetched to view it. docs/plots.md describes each part."
              "</footer></main></body></html>\n")


# Captions of the figures `acmesim plot` draws (docs/plots.md describes each in full).
FIGURE_CAPTIONS = {
    "wait_cdf": "Queueing delay of GPU jobs by type (CDF).",
    "jct_cdf": "Job completion time of GPU jobs by type (CDF).",
    "utilisation": "GPUs in each ledger state over time, with IT power when recorded.",
    "lost_gpu_hours": "Lost GPU-hours by cause, and capacity unavailable.",
    "slowdown": "Each GPU job's slowdown by the network against its size.",
    "compare": "Relative difference B/A of each metric with its interval; coloured by the metric's direction.",
    "plan_tradeoff": "Each candidate's cost against each target: mean, bar to the judged bound, the answer ringed.",
}


def figures_section(figures):
    if not figures:
        return section("Figures", "<p>No figure could be drawn from this directory.</p>", "figures")
    parts = []
    for name, svg in figures:
        caption = FIGURE_CAPTIONS.get(name, "")
        if name.startswith("sweep_"):
            caption = f"{name[len('sweep_'):]} against the swept parameter, mean and 95% interval over the seeds."
        elif name.endswith("_cdf") and name not in FIGURE_CAPTIONS:
            caption = "The pooled CDF of A's and B's runs."
        parts.append(f'<figure id="figure-{esc(name)}">{svg}<figcaption><b>{esc(name)}</b>: {esc(caption)}'
                     "</figcaption></figure>")
    return section("Figures", "".join(parts), "figures")


# --- a run ---------------------------------------------------------------------------------------

def report_run(results, facts):
    metrics = {m["name"]: m["value"] for m in facts["metrics"]}
    headline = [(m["help"], shown_value(metrics[m["name"]], m["unit"]), m["name"])
                for m in FACTS["metrics"] if m["headline"] and m["name"] in metrics]
    share = facts["lost_gpu_hours_total"] / facts["gpu_hours_total"] if facts["gpu_hours_total"] else 0.0
    device = facts["device"]  # "GPU", or "CPU" on a CPU machine
    headline.append((f"{device}-hours of capacity unavailable",
                     shown_value(facts["unavailable_gpu_hours_total"], f"{device}-h"), "unavailable_gpu_hours.total"))
    jobs = facts["jobs"]
    run = table(["scenario", "seed", "jobs", f"{device} jobs", "jobs of no processor" if device == "CPU" else
                 "CPU-only jobs", "rejected (larger than any pod)"],
                [[esc(facts["scenario_name"]), esc(facts["seed"])] + [esc(f"{jobs[k]:,}") for k in
                                                                      ("total", "gpu", "cpu_only", "rejected")]])
    rows = [[esc(m["name"]), esc(shown_value(metrics[m["name"]], m["unit"])), esc(m["better"]), esc(m["help"])]
            for m in FACTS["metrics"] if m["name"] in metrics]
    lost = [[esc(item["label"]), esc(shown_value(item["hours"], f"{device}-h"))]
            for item in facts["lost_gpu_hours"] + facts["unavailable_gpu_hours"] if item["hours"]]
    head = [section("Headline", run + cards(headline)
                    + f"<p>Lost work is {100 * share:.2f}% of all {shown_number(facts['gpu_hours_total'])} "
                      f"{device}-hours; capacity unavailable is counted apart.</p>", "headline")]
    details = []
    if lost:
        details.append(section(f"Where {device}-hours were lost", table(["cause or state", f"{device}-hours"], lost),
                               "lost"))
    details.append(section("Every metric", table(["metric", "value", "better", "what it is"], rows), "metrics"))
    scenario = json.dumps(facts["scenario"], indent=1, sort_keys=True)
    details.append(section("Scenario", "<details><summary>The resolved scenario, as summary.json echoes it"
                                      f"</summary><pre>{esc(scenario)}</pre></details>", "scenario"))
    return f"run: {facts['scenario_name']}", "One simulation run (acmesim run).", head, details


# --- a comparison --------------------------------------------------------------------------------

def better_side(verdict, better):
    """"better", "worse" or "neither" for B by the metric's direction; None without a verdict."""
    if not verdict:
        return None
    if better == "neither":
        return "neither"
    return "better" if (verdict == "B lower") == (better == "lower") else "worse"


def with_interval(row, value, low, high):
    return f"{shown_number(row.get(value))} [{shown_number(row.get(low))}, {shown_number(row.get(high))}]"


def report_compare(results):
    path = os.path.join(results, "compare.json")
    c = Comparison(path)
    doc = read_json(path)
    level = f"{100 * c.confidence:g}%"
    rows, classes, tally = [], [], {"better": 0, "worse": 0, "neither": 0, None: 0}
    for m in doc["metrics"]:
        name, unit = m.get("metric"), metric_facts(m.get("metric")).get("unit", "")
        side = better_side(m.get("verdict"), m.get("better", "neither"))
        tally[side] += 1
        ratio = "–" if m.get("ratio") is None else with_interval(m, "ratio", "ratio_ci_low", "ratio_ci_high")
        rows.append([esc(name), esc(shown_value(m.get("a_mean"), unit)), esc(shown_value(m.get("b_mean"), unit)),
                     esc(with_interval(m, "diff_mean", "diff_ci_low", "diff_ci_high")),
                     esc(ratio), esc(m.get("verdict") or "no difference shown")])
        classes.append(judged_class(side))
    headline = cards([("seeds, paired", str(len(c.seeds)), "each seed gives A and B the same jobs and failures"),
                      ("B better", str(tally["better"]), "metrics with a verdict, by their direction"),
                      ("B worse", str(tally["worse"]), ""),
                      ("no verdict", str(tally[None]), f"{level} interval of the difference holds 0")])
    sides = table(["side", "scenario and settings"], [[esc(c.label_a), esc(c.text_a)], [esc(c.label_b), esc(c.text_b)]])
    head = [section("Headline", sides + headline, "headline")]
    details = [section("Every metric", f"<p>B − A is the mean paired difference with its {level} interval "
                                       "(Student t); the ratio B/A and its interval are derived from it "
                                       "(docs/experiments.md#compare). Green: B better by the metric's direction; "
                                       "red: worse; blue: changed, no direction.</p>"
                    + table(["metric", f"{esc(c.label_a)} mean", f"{esc(c.label_b)} mean", "B − A [interval]",
                             "B/A [interval]", "verdict"], rows, classes), "metrics")]
    return f"comparison: {c.label_a} vs {c.label_b}", "Two scenarios over the same seeds (acmesim compare).", \
        head, details


# --- a sweep -------------------------------------------------------------------------------------

def report_sweep(results):
    path = os.path.join(results, "results.csv")
    sweep = Sweep(path)
    drawn = [(m, unit) for m, _, unit in sweep_metrics() if m in sweep.values]
    xs = list(sweep.xs)
    if sweep.params and all(parses_as_number(x) for x in xs):
        xs.sort(key=float)  # as the figures draw them
    settings = [(x, o) for o in sweep.others for x in xs if any((x, o) in sweep.values[m] for m, _ in drawn)]
    rows = []
    for x, others in settings:
        row = [esc(v) for v in ([x] if sweep.params else []) + list(others)]
        for m, unit in drawn:
            values = sweep.values[m].get((x, others))
            if not values:
                row.append("–")
                continue
            mean, half = mean_and_half_width(values)
            text = shown_value(mean, unit, compact=True)
            if math.isfinite(half):
                text += f" ± {shown_value(half, unit, compact=True)}"
            row.append(esc(text))
        rows.append(row)
    header = [esc(p) for p in sweep.params] + [esc(m) for m, _ in drawn]
    seeds = sorted({len(v) for groups in sweep.values.values() for v in groups.values()})
    missing = sum(missing_point_statuses(results, sweep.points).values())
    head = [section("Headline", cards([("settings", str(len(settings)), ", ".join(sweep.params) or "seeds only"),
                                       ("points with results", str(len(sweep.points)),
                                        "a point: one setting, one seed"),
                                       ("points without results", str(missing), "see points.csv"),
                                       ("seeds per setting", "–" if not seeds else
                                        (str(seeds[0]) if len(seeds) == 1 else f"{seeds[0]}–{seeds[-1]}"), "")]),
                    "headline"),
            section("Headline metrics by setting", "<p>Mean over the seeds ± the half-width of its 95% interval "
                                                   "(Student t).</p>" + table(header, rows), "metrics")]
    return f"sweep: {os.path.basename(os.path.abspath(results))}", \
        "A grid of settings, one run per point and seed (acmesim sweep).", head, []


# --- a plan --------------------------------------------------------------------------------------

def settings_text(candidate):
    return ", ".join(f"{k}={v}" for k, v in (candidate.get("values") or {}).items()) or "(base)"


def target_text(target):
    most = "at_most" in target
    threshold = target.get("at_most" if most else "at_least")
    return f"{target.get('metric')} {'<=' if most else '>='} {shown_number(threshold)}"


def targets_rows(plan_targets, judged):
    rows, classes = [], []
    for target, t in zip(plan_targets, judged):
        unit = metric_facts(t.get("metric")).get("unit", "")
        rows.append([esc(target_text(target)), esc(shown_value(t.get("mean"), unit)),
                     esc(shown_value(t.get("bound"), unit)), esc(shown_number(t.get("margin"))),
                     '<span class="ok">met</span>' if t.get("met") else '<span class="miss">missed</span>'])
        classes.append("better" if t.get("met") else "worse")
    return rows, classes


TARGET_HEADER = ["target", "mean", "bound judged", "margin", ""]


def report_plan(results):
    path = os.path.join(results, "plan.json")
    plan = read_json(path)
    if not isinstance(plan, dict) or not isinstance(plan.get("candidates"), list) or \
            not isinstance(plan.get("targets"), list):
        raise BadInput(f"{path}: expected a plan's targets and candidates")
    by_id = {c.get("id"): c for c in plan["candidates"] if isinstance(c, dict)}
    unit = plan.get("cost_unit") or ""
    answer = by_id.get(plan.get("answer"))
    level = f"{100 * plan.get('confidence', 0.95):g}%"
    body = []
    if answer:
        parts = answer.get("cost_parts") or {}
        items = [("answer", settings_text(answer), answer.get("id")),
                 ("cost", f"{shown_number(answer.get('cost'))} {unit}".strip(), plan.get("cost", ""))]
        for part in ("capital", "energy"):
            if part in parts:
                items.append((part, f"{shown_number(parts[part])} {unit}".strip(), ""))
        items.append(("search", f"{len(plan['candidates'])} candidates",
                      f"{plan.get('runs')} runs in {plan.get('rounds')} rounds"))
        rows, classes = targets_rows(plan["targets"], answer.get("targets", []))
        body.append(section("The answer", cards(items) + f"<p>Every target judged at {level} confidence "
                                                           "on the seeds' one-sided bound:</p>"
                            + table(TARGET_HEADER, rows, classes), "answer"))
    else:
        body.append(section("The answer", "<p><b>No candidate meets every target.</b> Missed by all: "
                            + esc(", ".join(plan.get("unmet_targets") or [])) + "</p>", "answer"))
    body += plan_tradeoffs(plan, by_id, answer, unit)
    return f"plan: {plan.get('plan', '')}", "The cheapest configuration that meets every target (acmesim plan).", \
        body, [every_candidate(plan, answer, unit)]


def plan_tradeoffs(plan, by_id, answer, unit):
    body = []
    guards = answer.get("guards", []) if answer else []
    if guards:
        rows = [[esc(g.get("metric")), esc(shown_number(g.get("base_mean"))), esc(shown_change(g.get("relative"))),
                 esc(shown_number(g.get("worsening_bound"))), esc(shown_number(g.get("allowed"))),
                 '<span class="ok">met</span>' if g.get("met") else '<span class="miss">broken</span>'] for g in guards]
        body.append(section("Guards: what the answer may not worsen against the base",
                            table(["metric", "base mean", "mean change", "worsening bound", "allowed", ""], rows),
                            "guards"))
    neighbours = [(side, by_id.get((plan.get("neighbours") or {}).get(side))) for side in ("cheaper", "dearer")]
    rows, classes = [], []
    for side, c in [("cheaper", neighbours[0][1]), ("answer", answer), ("dearer", neighbours[1][1])]:
        if not c:
            continue
        margins = "; ".join(f"{t.get('metric')} {shown_number(t.get('margin'))}" for t in c.get("targets", []))
        rows.append([esc(side), esc(settings_text(c)), esc(f"{shown_number(c.get('cost'))} {unit}".strip()),
                     esc(margins), esc("meets every target" if c.get("meets_targets") else
                                       "misses " + ", ".join(c.get("misses") or ["a guard"]))])
        classes.append("answer" if side == "answer" else "")
    if rows:
        body.append(section("Neighbours: one step cheaper and one dearer",
                            "<p>A margin is the distance from the judged bound to the threshold; negative is a "
                            "miss. A small margin next to a miss is a cliff.</p>"
                            + table(["", "settings", "cost", "margins", "verdict"], rows, classes), "neighbours"))
    pairs = plan.get("non_monotone") or []
    if pairs:
        items = "".join(f"<li>{esc(p.get('what'))}: met at {esc(settings_text(by_id.get(p.get('meets'), {})))}, "
                        f"missed at {esc(settings_text(by_id.get(p.get('misses'), {})))}</li>" for p in pairs)
        body.append(section("Not monotone", "<p>Along a bisected variable a target or guard went from met to "
                                            f"missed; bisection assumes it does not.</p><ul>{items}</ul>", "monotone"))
    beside = [m for m in plan.get("beside_base") or [] if m.get("change") not in (None, 0) or m.get("flagged")]
    if beside:
        rows = [[('<span class="flag">!</span> ' if m.get("flagged") else "") + esc(m.get("metric")),
                 esc(shown_value(m.get("base"), m.get("unit", ""))),
                 esc(shown_value(m.get("answer"), m.get("unit", ""))),
                 esc(shown_change(m.get("change"))), esc(m.get("role") or "")] for m in beside]
        classes = [("worse" if m.get("worse") else "better") if m.get("better") != "neither" else "changed"
                   for m in beside]
        body.append(section("The answer beside the base scenario",
                            f"<p>Every metric that changed; ! marks one more than "
                            f"{100 * plan.get('warn_worse_than', 0.1):g}% worse (or worse than a base of 0).</p>"
                            + table(["metric", "base", "answer", "change", "role"], rows, classes), "beside-base"))
    robustness = plan.get("robustness") or []
    if robustness:
        rows, classes = [], []
        for r in robustness:
            for (cells, css) in zip(*targets_rows(plan["targets"], r.get("targets", []))):
                rows.append([esc(f"×{r.get('load_scale'):g}")] + cells)
                classes.append(css)
        body.append(section("Robustness: the answer under more load",
                            "<p>The answer rerun with workload.load_scale; guards are not judged here.</p>"
                            + table(["load"] + TARGET_HEADER, rows, classes), "robustness"))
    return body


def every_candidate(plan, answer, unit):
    rows, classes = [], []
    for c in sorted(plan["candidates"], key=lambda c: (c.get("cost") or 0, c.get("id") or "")):
        rows.append([esc(c.get("id")), esc(settings_text(c)), esc(shown_number(c.get("cost"))),
                     esc("meets every target" if c.get("meets_targets") else "misses " +
                         ", ".join(c.get("misses") or ["a guard"]))])
        classes.append("answer" if c is answer else ("better" if c.get("meets_targets") else "worse"))
    return section("Every candidate run", "<details><summary>By cost</summary>"
                   + table(["id", "settings", f"cost {esc(unit)}".strip(), "verdict"], rows, classes)
                   + "</details>", "candidates")


# --- the page ------------------------------------------------------------------------------------

def write_page(path, text):
    """Writes the page to `path`: a regular file (or a name not yet taken) under a temporary name,
    then renamed, so a page that exists is whole; a device or pipe as a stream; `-` to stdout."""
    if path == "-":
        sys.stdout.write(text)
        return
    path = os.path.realpath(path)  # a link is followed, not replaced
    if os.path.isdir(path):
        raise BadInput(f"{path}: is a directory; --out names the page's file")
    try:
        if os.path.exists(path) and not os.path.isfile(path):
            with open(path, "w", encoding="utf-8") as stream:
                stream.write(text)
            return
        temporary = path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, path)
    except OSError as e:
        raise BadInput(f"{path}: cannot write: {e.strerror}")
    print(path, flush=True)


def report(results, plot, out):
    """Draws the directory's figures inline and writes its page to `out`."""
    figures = InlineFigures()
    if plot is plot_run:
        facts = FACTS["run"]
        plot_run(results, facts, figures)
        title, subtitle, head, details = report_run(results, facts)
    else:
        plot(results, figures)
        title, subtitle, head, details = {plot_compare: report_compare, plot_sweep: report_sweep,
                                          plot_plan: report_plan}[plot](results)
    sections = head + [figures_section(figures.figures)] + details
    write_page(out, page(f"acmesim {title}", subtitle, sections, results))
