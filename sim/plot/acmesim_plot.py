"""Figures from acmesim results: `acmesim plot RESULTS_DIR [--format png|svg] [--out DIR]`.

The acmesim binary embeds this script and runs it as `python3 -c <script> [options] RESULTS_DIR`.
RESULTS_DIR is a run (`acmesim run`), a comparison (`acmesim compare`) or a sweep (`acmesim sweep`)
directory, told apart by the files in it. Each figure goes to its own file under --out (default
RESULTS_DIR/plots/) and its path is printed on stdout; notes go to stderr. Input the script
cannot use exits 2 with a message naming the file. Needs only the standard library and matplotlib
(with numpy). docs/plots.md describes every figure.
"""
import argparse
import csv
import json
import math
import os
import statistics
import sys

EXIT_BAD_INPUT = 2
MATPLOTLIB_HINT = "acmesim plot needs matplotlib (Debian: apt-get install python3-matplotlib)"
# Where Debian's python3-matplotlib is importable.
SYSTEM_PYTHON = "/usr/bin/python3"

# Job types in the order of the Acme paper's figures; other types follow, sorted.
TYPE_ORDER = ["Pretrain", "Eval", "SFT", "MLLM", "Debug", "Other"]
TYPE_COLOURS = {"Pretrain": "tab:red", "Eval": "tab:blue", "SFT": "tab:green", "MLLM": "tab:purple",
                "Debug": "tab:orange", "Other": "tab:gray"}

# GPU states of utilisation.csv, bottom of the stack first: work, then overheads, then losses,
# then capacity nobody used. Columns not listed here are stacked after these, in header order.
STATE_STYLE = [
    ("busy", "useful work", "#2ca02c"),
    ("model_load", "model load", "#98df8a"),
    ("cpu_wait", "waiting for CPUs", "#bcbd22"),
    ("checkpoint", "checkpoint", "#1f77b4"),
    ("restart", "restart", "#aec7e8"),
    ("lost_work", "lost work", "#d62728"),
    ("detection", "failure detection", "#ff9896"),
    ("waiting_for_person", "waiting for a person", "#ff7f0e"),
    ("down", "node down", "#7f7f7f"),
    ("stranded", "stranded", "#9467bd"),
    ("spare", "spare", "#c5b0d5"),
    ("idle", "idle", "#e5e5e5"),
]

# The sweep metrics drawn, with their axis labels.
SWEEP_METRICS = [
    ("makespan_s", "makespan"),
    ("wait_s.mean", "mean queueing delay of GPU jobs"),
    ("jct_s.mean", "mean JCT of GPU jobs"),
    ("utilisation.gpu_busy", "GPU utilisation (busy)"),
    ("lost_gpu_hours.total", "lost GPU-hours"),
]

# Student t 0.975 quantiles (two-sided 95%) by degrees of freedom; between tabulated values the
# next smaller df is used, which errs towards a wider band; beyond 120 df, the normal 1.96.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
        18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060,
        26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}

# A CDF line keeps at most this many points: plenty for the eye, and keeps SVG files small.
CDF_POINTS = 1000

plt = None  # matplotlib.pyplot, imported by load_matplotlib()
np = None   # numpy


class BadInput(Exception):
    """Input the script cannot use; the message names the file and what is wrong with it."""


def note(message):
    print("note: " + message, file=sys.stderr)


# --- libraries -------------------------------------------------------------------------------

def retry_with_system_python():
    """A pyenv or virtualenv python3 first on PATH often lacks matplotlib although Debian's
    python3-matplotlib is installed for /usr/bin/python3: run this script once more there."""
    argv = getattr(sys, "orig_argv", None)  # the command line, `-c <script>` included
    if (not argv or os.environ.get("ACMESIM_PLOT_RETRIED") or not os.access(SYSTEM_PYTHON, os.X_OK)
            or os.path.realpath(sys.executable) == os.path.realpath(SYSTEM_PYTHON)):
        return
    os.environ["ACMESIM_PLOT_RETRIED"] = "1"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + argv[1:])


def load_matplotlib():
    global plt, np
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display: files only
        import matplotlib.pyplot
        import numpy
    except ImportError as e:
        retry_with_system_python()
        raise BadInput(f"{MATPLOTLIB_HINT}; {sys.executable}: {e}")
    plt, np = matplotlib.pyplot, numpy
    # Fixed ids in SVG files, so the same results give the same bytes.
    matplotlib.rcParams["svg.hashsalt"] = "acmesim"
    matplotlib.rcParams["figure.dpi"] = 100


# --- reading inputs --------------------------------------------------------------------------

def read_csv(path, required, on_row, check_header=None):
    """Reads a CSV file row by row (jobs.csv files can hold millions of rows): checks its header
    has the `required` columns (and passes check_header(header), if given) and each row the
    header's width, and calls on_row(line_number, row, column_index) for each non-blank row.
    Returns the header."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if not header:
                raise BadInput(f"{path}: empty file, expected a header line")
            missing = [c for c in required if c not in header]
            if missing:
                raise BadInput(f"{path}:1: the header lacks the column(s) {', '.join(missing)}")
            if check_header:
                check_header(header)
            column = {name: i for i, name in enumerate(header)}
            for row in reader:
                if not row:
                    continue
                if len(row) != len(header):
                    raise BadInput(f"{path}:{reader.line_num}: {len(row)} fields where the header has {len(header)}")
                on_row(reader.line_num, row, column)
            return header
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}")
    except (csv.Error, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: not a readable CSV file: {e}")


def number(text, where, column):
    try:
        value = float(text)
    except ValueError:
        raise BadInput(f"{where}: column {column}: '{text}' is not a number")
    if not math.isfinite(value):
        raise BadInput(f"{where}: column {column}: '{text}' is not a finite number")
    return value


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: not valid JSON: {e}")


def json_number(value, where, key, allow_null=False):
    if value is None and allow_null:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadInput(f"{where}: {key}: expected a number{' or null' if allow_null else ''}, found {value!r}")
    return float(value)


def read_gpu_jobs(path):
    """{type: [wait_s...]}, {type: [jct_s...]} of the GPU jobs of a jobs.csv: the jobs summary.json's
    wait_s and jct_s describe. Rejected jobs (empty times) are left out, as there."""
    waits, jcts = {}, {}

    def take(line, row, col):
        where = f"{path}:{line}"
        if number(row[col["gpus"]], where, "gpus") <= 0:
            return
        wait, jct = row[col["wait_s"]], row[col["jct_s"]]
        if wait == "" or jct == "":
            return
        kind = row[col["type"]]
        waits.setdefault(kind, []).append(number(wait, where, "wait_s"))
        jcts.setdefault(kind, []).append(number(jct, where, "jct_s"))

    read_csv(path, ["type", "gpus", "wait_s", "jct_s"], take)
    # Arrays take a quarter of the memory of lists of floats: a comparison pools many runs.
    return ({t: np.array(v) for t, v in waits.items()}, {t: np.array(v) for t, v in jcts.items()})


def ordered_types(types):
    known = [t for t in TYPE_ORDER if t in types]
    return known + sorted(t for t in types if t not in TYPE_ORDER)


# --- figure helpers --------------------------------------------------------------------------

class FigureWriter:
    def __init__(self, out_dir, fmt):
        self.out_dir, self.fmt = out_dir, fmt
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as e:
            raise BadInput(f"{out_dir}: cannot create the output directory: {e.strerror}")

    def save(self, fig, name):
        """Writes under a temporary name and renames, so a file that exists is whole."""
        path = os.path.join(self.out_dir, f"{name}.{self.fmt}")
        temporary = path + ".tmp"
        # No date or version stamps: the same results give the same bytes.
        metadata = {"Date": None} if self.fmt == "svg" else {"Software": None}
        try:
            fig.savefig(temporary, format=self.fmt, metadata=metadata, dpi=150, bbox_inches="tight")
            os.replace(temporary, path)
        except OSError as e:
            raise BadInput(f"{path}: cannot write: {e.strerror}")
        finally:
            plt.close(fig)
        print(path, flush=True)


def time_unit(values):
    """(divisor, unit) that shows durations of this size readably."""
    top = max((abs(v) for v in values), default=0.0)
    for divisor, unit in ((86400.0, "days"), (3600.0, "hours"), (60.0, "minutes")):
        if top >= 2 * divisor:
            return divisor, unit
    return 1.0, "s"


def cdf_steps(values):
    """x, y of the empirical CDF of `values`, clipped at 1 s for a log axis, thinned to at most
    CDF_POINTS points taken at evenly spaced ranks."""
    x = np.maximum(np.sort(np.asarray(values, dtype=float)), 1.0)
    n = len(x)
    ranks = np.arange(n) if n <= CDF_POINTS else np.unique(np.linspace(0, n - 1, CDF_POINTS).round().astype(int))
    return np.concatenate(([x[0]], x[ranks])), np.concatenate(([0.0], (ranks + 1) / n))


def cdf_axes(ax, what, series):
    """One CDF line per (label, values, colour) on a log x axis starting at 1 s."""
    top = 10.0
    for label, values, colour in series:
        x, y = cdf_steps(values)
        ax.plot(x, y, drawstyle="steps-post", color=colour, label=f"{label} (n={len(values):,})")
        top = max(top, float(x[-1]) * 1.5)
    ax.set_xscale("log")
    ax.set_xlim(1.0, top)
    ax.set_ylim(0.0, 1.02)
    for seconds, name in ((60, "1 min"), (3600, "1 h"), (86400, "1 day"), (7 * 86400, "1 week")):
        if seconds < top:
            ax.axvline(seconds, color="0.75", linestyle=":", linewidth=0.8)
            ax.text(seconds, 1.025, name, fontsize=7, color="0.4", ha="center", va="bottom")
    ax.set_xlabel(f"{what} (s, log scale; values under 1 s drawn at 1 s)")
    ax.set_ylabel("fraction of jobs (CDF)")
    ax.grid(True, which="major", alpha=0.3)
    if series:
        ax.legend(loc="lower right", fontsize=8)
    else:
        ax.text(0.5, 0.5, "no GPU jobs", transform=ax.transAxes, ha="center", va="center", color="0.4")


# --- run directory ---------------------------------------------------------------------------

def plot_run(results, writer):
    summary_path = os.path.join(results, "summary.json")
    summary = read_json(summary_path)
    if not isinstance(summary, dict):
        raise BadInput(f"{summary_path}: expected a JSON object")
    name = summary.get("scenario_name")
    suffix = f" ({name})" if isinstance(name, str) and name else ""

    waits, jcts = read_gpu_jobs(os.path.join(results, "jobs.csv"))
    for figure, what, samples in (("wait_cdf", "queueing delay", waits), ("jct_cdf", "job completion time", jcts)):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        series = [(t, samples[t], TYPE_COLOURS.get(t)) for t in ordered_types(samples)]
        cdf_axes(ax, what, series)
        ax.set_title(f"{what.capitalize()} of GPU jobs by type{suffix}", pad=14)
        writer.save(fig, figure)

    utilisation_path = os.path.join(results, "utilisation.csv")
    if os.path.exists(utilisation_path):
        plot_utilisation(utilisation_path, suffix, writer)
    else:
        note(f"{utilisation_path}: no such file; skipping the utilisation figure")
    plot_lost_gpu_hours(summary, summary_path, suffix, writer)


def plot_utilisation(path, suffix, writer):
    bins = []  # (start_s, end_s, {state: GPUs})

    def take(line, row, col):
        where = f"{path}:{line}"
        values = {name: number(row[i], where, name) for name, i in col.items()}
        start, end = values.pop("start_s"), values.pop("end_s")
        if end <= start:
            raise BadInput(f"{where}: end_s {row[col['end_s']]} is not after start_s {row[col['start_s']]}")
        bins.append((start, end, values))

    header = read_csv(path, ["start_s", "end_s"], take)
    if not bins:
        raise BadInput(f"{path}: no rows after the header")
    bins.sort(key=lambda b: b[0])
    known = [s for s, _, _ in STATE_STYLE]
    states = [s for s in known if s in header] + [c for c in header if c not in known + ["start_s", "end_s"]]
    # States that never hold a GPU would only clutter the legend.
    states = [s for s in states if any(b[2][s] != 0 for b in bins)]
    style = {s: (label, colour) for s, label, colour in STATE_STYLE}

    # Each bin's value holds from its start to its end: steps, closed by the last bin's end.
    days = [b[0] / 86400 for b in bins] + [bins[-1][1] / 86400]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    if states:
        ax.stackplot(days, *[[b[2][s] for b in bins] + [bins[-1][2][s]] for s in states], step="post",
                     labels=[style.get(s, (s, None))[0] for s in states],
                     colors=[style.get(s, (s, f"C{i}"))[1] for i, s in enumerate(states)], linewidth=0)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title="GPU state")
    ax.set_xlim(days[0], days[-1])
    ax.set_ylim(0, max(1.0, max(sum(b[2][s] for s in states) for b in bins)) * 1.02)
    ax.set_xlabel("simulated time (days)")
    ax.set_ylabel("GPUs (mean over each bin)")
    ax.set_title(f"GPUs by state over time{suffix}")
    ax.grid(True, alpha=0.3)
    writer.save(fig, "utilisation")


def plot_lost_gpu_hours(summary, path, suffix, writer):
    """Drawn even when nothing was lost: a figure set that does not depend on the run is easier
    to script against, and an empty chart says 'no losses' plainly."""
    lost = summary.get("lost_gpu_hours")
    if not isinstance(lost, dict):
        raise BadInput(f"{path}: lost_gpu_hours: expected an object of GPU-hours by cause")
    causes = [c for c in lost if c != "total"]
    hours = [json_number(lost[c], path, f"lost_gpu_hours.{c}") for c in causes]
    total = sum(hours)
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.4 * max(len(causes), 1)))
    ax.barh(range(len(causes)), hours, color="tab:red")
    ax.set_yticks(range(len(causes)), [c.replace("_", " ") for c in causes])
    ax.invert_yaxis()
    for y, h in enumerate(hours):
        ax.text(h, y, f" {h:,.1f}", va="center", fontsize=8)
    ax.set_xlim(0, max(hours, default=0) * 1.2 or 1.0)
    ax.set_xlabel("GPU-hours")
    if total >= 10000:  # thousands separators; small values keep the default ticks
        ax.xaxis.set_major_formatter("{x:,.0f}")
    share = ""
    all_hours = summary.get("gpu_hours", {}).get("total") if isinstance(summary.get("gpu_hours"), dict) else None
    if isinstance(all_hours, (int, float)) and all_hours > 0:
        share = f", {100 * total / all_hours:.2f}% of all"
    ax.set_title(f"Lost GPU-hours by cause{suffix}\n{total:,.1f} in total{share}", fontsize=11)
    if total == 0:
        ax.text(0.5, 0.5, "no GPU-hours lost", transform=ax.transAxes, ha="center", va="center", color="0.4")
    ax.grid(True, axis="x", alpha=0.3)
    writer.save(fig, "lost_gpu_hours")


# --- comparison directory --------------------------------------------------------------------

def side_description(side, path, name):
    if not isinstance(side, dict):
        raise BadInput(f"{path}: {name}: expected an object with label, scenario and set")
    label = str(side.get("label") or name.upper())
    sets = side.get("set") or []
    text = " ".join([str(side.get("scenario") or "(default scenario)")] + [str(s) for s in sets])
    return label, text if len(text) <= 90 else text[:87] + "..."


def plot_compare(results, writer):
    path = os.path.join(results, "compare.json")
    doc = read_json(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("metrics"), list) or not doc["metrics"]:
        raise BadInput(f"{path}: expected an object with a non-empty 'metrics' list")
    label_a, text_a = side_description(doc.get("a"), path, "a")
    label_b, text_b = side_description(doc.get("b"), path, "b")
    seeds = doc.get("seeds")
    if not isinstance(seeds, list):
        raise BadInput(f"{path}: seeds: expected a list of seeds")
    confidence = json_number(doc.get("confidence", 0.95), path, "confidence")

    rows = []
    for i, m in enumerate(doc["metrics"]):
        where = f"metrics[{i}]"
        if not isinstance(m, dict) or not isinstance(m.get("metric"), str):
            raise BadInput(f"{path}: {where}: expected an object with a 'metric' name")
        get = {k: json_number(m.get(k), path, f"{where}.{k}", allow_null=True)
               for k in ("ratio", "ratio_ci_low", "ratio_ci_high", "diff_mean")}
        rows.append((m["metric"], get, m.get("verdict")))

    fig, ax = plt.subplots(figsize=(9, 1.9 + 0.3 * max(len(rows), 1)))
    for y, (metric, v, verdict) in enumerate(rows):
        colour = {"B lower": "tab:blue", "B higher": "tab:red"}.get(verdict, "0.35")
        if verdict:
            ax.axhspan(y - 0.5, y + 0.5, color="#fff3c4", zorder=0)
        if v["ratio"] is None:
            diff = "" if v["diff_mean"] is None else f"; B - A = {v['diff_mean']:+.4g}"
            text = f"ratio n/a{diff}"
        else:
            x = 100 * (v["ratio"] - 1)
            text = f"{x:+.1f}%"
            if v["ratio_ci_low"] is not None and v["ratio_ci_high"] is not None:
                low, high = 100 * (v["ratio_ci_low"] - 1), 100 * (v["ratio_ci_high"] - 1)
                ax.errorbar([x], [y], xerr=[[max(x - low, 0)], [max(high - x, 0)]], fmt="o", color=colour,
                            capsize=3, markersize=4)
                text += f" [{low:+.1f}, {high:+.1f}]"
            else:
                ax.plot([x], [y], "o", color=colour, markersize=4)
        if verdict:
            text += f"  {verdict}"
        ax.text(1.01, y, text, transform=ax.get_yaxis_transform(), va="center", fontsize=8, color=colour,
                fontweight="bold" if verdict else "normal")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=8)
    for tick, (_, _, verdict) in zip(ax.get_yticklabels(), rows):
        if verdict:
            tick.set_fontweight("bold")
    ax.set_ylim(len(rows) - 0.5, -0.5)  # first metric on top
    ax.set_xlabel(f"relative difference of the means, {label_b}/{label_a} - 1 (%), "
                  f"with its {100 * confidence:.0f}% CI")
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_title(f"{label_b} vs {label_a} over {len(seeds)} seed{'s' if len(seeds) != 1 else ''} "
                 f"(highlighted: the CI excludes 0)\n{label_a}: {text_a}\n{label_b}: {text_b}", fontsize=9)
    writer.save(fig, "compare")

    runs = os.path.join(results, "runs")
    if not os.path.isdir(runs):
        note(f"{runs}: no such directory; skipping the pooled CDFs of the two sides")
        return
    pooled = {}
    for side in ("a", "b"):
        waits, jcts = [np.empty(0)], [np.empty(0)]
        for seed in seeds:
            w, j = read_gpu_jobs(os.path.join(runs, side, f"seed-{seed}", "jobs.csv"))
            waits += w.values()
            jcts += j.values()
        pooled[side] = (np.concatenate(waits), np.concatenate(jcts))
    for index, (figure, what) in enumerate((("compare_wait_cdf", "queueing delay"),
                                            ("compare_jct_cdf", "job completion time"))):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        cdf_axes(ax, what, [(label, pooled[side][index], colour) for side, label, colour in
                            (("a", label_a, "tab:gray"), ("b", label_b, "tab:blue")) if len(pooled[side][index])])
        ax.set_title(f"{what.capitalize()} of all GPU jobs, pooled over {len(seeds)} seeds", pad=14)
        writer.save(fig, figure)


# --- sweep directory -------------------------------------------------------------------------

def t975(df):
    if df > max(T975):
        return 1.96
    return T975[max(d for d in T975 if d <= df)]


def mean_and_half_width(values):
    """Mean and 95% CI half-width (Student t, n - 1 df); NaN half-width for a single value."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))


def parses_as_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


class Sweep:
    """results.csv, grouped: values[metric][(x, others)] lists one value per seed, where x is the
    first parameter's value and others the tuple of the other parameters' values."""

    def __init__(self, path):
        self.path, self.params, self.values, self.points = path, [], {}, set()
        self.xs, self.others = {}, {}  # dicts as ordered sets: values in the order first seen
        read_csv(path, ["point", "seed", "metric", "value"], self._take, self._check_header)

    def _check_header(self, header):
        if header[0] != "point" or header[-3:] != ["seed", "metric", "value"]:
            raise BadInput(f"{self.path}:1: expected the header "
                           f"point,<parameters...>,seed,metric,value; found {','.join(header)}")
        self.params = header[1:-3]

    def _take(self, line, row, col):
        self.points.add(row[0])
        if row[-1] in ("", "null", "nan"):  # a statistic of an empty sample
            return
        x = row[1] if self.params else "all seeds"
        others = tuple(row[2:-3])
        self.xs.setdefault(x, None)
        self.others.setdefault(others, None)
        value = number(row[-1], f"{self.path}:{line}", "value")
        self.values.setdefault(row[-2], {}).setdefault((x, others), []).append(value)


def note_missing_points(results, points_seen):
    """points.csv lists every point, finished or not: say how many have no results."""
    path = os.path.join(results, "points.csv")
    if not os.path.exists(path):
        return
    statuses = {}

    def take(line, row, col):
        if row[col["point"]] not in points_seen:
            status = row[col["status"]] or "unknown"
            statuses[status] = statuses.get(status, 0) + 1

    try:
        read_csv(path, ["point", "status"], take)
    except BadInput as e:
        note(f"{e}; cannot tell which points are missing")
        return
    if statuses:
        breakdown = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
        note(f"{path}: {sum(statuses.values())} point(s) have no results ({breakdown}); the figures leave them out")


def metric_scale(metric, values):
    if metric.endswith("_s") or metric.startswith(("wait_s.", "jct_s.")):
        divisor, unit = time_unit(values)
        return divisor, unit
    if metric.startswith("utilisation."):
        return 0.01, "%"
    return 1.0, "GPU-hours" if metric.startswith("lost_gpu_hours") else ""


def plot_sweep(results, writer):
    path = os.path.join(results, "results.csv")
    sweep = Sweep(path)
    note_missing_points(results, sweep.points)
    params, data, xs, others = sweep.params, sweep.values, list(sweep.xs), list(sweep.others)
    drawn = [(m, label) for m, label in SWEEP_METRICS if m in data]
    if not drawn:
        raise BadInput(f"{path}: no values for any of {', '.join(m for m, _ in SWEEP_METRICS)} "
                       "(did every point fail? see points.csv)")
    numeric = bool(params) and all(parses_as_number(x) for x in xs)
    x_order = sorted(xs, key=float) if numeric else xs
    x_name = params[0] if params else "(no swept parameters)"
    other_names = params[1:]

    for metric, label in drawn:
        groups = data[metric]
        divisor, unit = metric_scale(metric, [v for vs in groups.values() for v in vs])
        fig, ax = plt.subplots(figsize=(7, 4.5))
        combos = [o for o in others if any((x, o) in groups for x in x_order)]
        for i, combo in enumerate(combos):
            points = [(x, *mean_and_half_width(groups[(x, combo)])) for x in x_order if (x, combo) in groups]
            means = np.array([p[1] for p in points]) / divisor
            half = np.array([p[2] for p in points]) / divisor
            name = ", ".join(combo) or None  # the legend's title names the parameters
            colour = f"C{i % 10}"
            if numeric:
                positions = np.array([float(p[0]) for p in points])
                ax.plot(positions, means, marker="o", color=colour, label=name)
                if not np.all(np.isnan(half)):
                    ax.fill_between(positions, means - half, means + half, color=colour, alpha=0.2, linewidth=0)
            else:
                # Categories: error bars, nudged sideways so that the lines do not hide each other.
                nudge = (i - (len(combos) - 1) / 2) * 0.08 if len(combos) > 1 else 0.0
                positions = np.array([x_order.index(p[0]) for p in points]) + nudge
                ax.errorbar(positions, means, yerr=np.nan_to_num(half), marker="o", color=colour, capsize=3,
                            label=name)
        if not numeric:
            ax.set_xticks(range(len(x_order)), x_order)
            ax.set_xlim(-0.5, len(x_order) - 0.5)
        if other_names and combos:
            ax.legend(fontsize=8, title=", ".join(other_names), title_fontsize=8)
        ax.set_xlabel(x_name)
        ax.set_ylabel(f"{label} ({unit})" if unit else label)
        seeds = sorted({len(vs) for vs in groups.values()})
        seed_text = f"{seeds[0]}" if len(seeds) == 1 else f"{seeds[0]}-{seeds[-1]}"
        band = "; 95% CI, Student t" if seeds[-1] > 1 else ""
        ax.set_title(f"{metric}: mean over {seed_text} seed(s) per point{band}", fontsize=10)
        ax.grid(True, alpha=0.3)
        writer.save(fig, f"sweep_{metric}")


# --- main ------------------------------------------------------------------------------------

def detect_kind(results):
    """Which command wrote this directory, by the files in it."""
    has = lambda name: os.path.isfile(os.path.join(results, name))
    if has("compare.json"):
        return plot_compare
    if has("results.csv"):
        return plot_sweep
    if has("jobs.csv") or has("summary.json"):
        for name in ("jobs.csv", "summary.json"):
            if not has(name):
                raise BadInput(f"{os.path.join(results, name)}: no such file; a run directory has jobs.csv and summary.json")
        return plot_run
    raise BadInput(f"{results}: not an acmesim results directory: expected jobs.csv and summary.json "
                   "(acmesim run), compare.json (acmesim compare) or results.csv (acmesim sweep)")


def main():
    parser = argparse.ArgumentParser(prog="acmesim plot", description="Figures from acmesim results.")
    parser.add_argument("results", metavar="RESULTS_DIR")
    parser.add_argument("--format", choices=["png", "svg"], default="png")
    parser.add_argument("--out", help="output directory (default RESULTS_DIR/plots)")
    args = parser.parse_args()  # a usage error exits 2, as acmesim's do
    try:
        if not os.path.isdir(args.results):
            raise BadInput(f"{args.results}: no such directory")
        plot = detect_kind(args.results)
        load_matplotlib()
        writer = FigureWriter(args.out or os.path.join(args.results, "plots"), args.format)
        plot(args.results, writer)
    except BadInput as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main())
