# A part of the `acmesim plot` script: the figures of a sweep directory. It uses the names the
# parts before it define (plot_common.py comes first; see acmesim_plot.py for the whole script).


def sweep_metrics():
    """The metrics a sweep's figures draw, with their axis labels and units: the headline ones of
    the metric table (FACTS["metrics"]; docs/metrics.md)."""
    return [(m["name"], m["help"], m["unit"]) for m in FACTS["metrics"] if m["headline"]]


def t975(df):
    """Student t 0.975 quantile (two-sided 95%) for `df` degrees of freedom, as the binary computed
    it for every df this sweep's points can have (FACTS["t975"], from df = 1)."""
    return FACTS["t975"][df - 1]


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


def missing_point_statuses(results, points_seen):
    """{status: count} of the points points.csv lists that results.csv has no values of; {} without
    points.csv."""
    path = os.path.join(results, "points.csv")
    statuses = {}
    if not os.path.exists(path):
        return statuses

    def take(line, row, col):
        if row[col["point"]] not in points_seen:
            status = row[col["status"]] or "unknown"
            statuses[status] = statuses.get(status, 0) + 1

    read_csv(path, ["point", "status"], take)
    return statuses


def note_missing_points(results, points_seen):
    """points.csv lists every point, finished or not: say how many have no results."""
    try:
        statuses = missing_point_statuses(results, points_seen)
    except BadInput as e:
        note(f"{e}; cannot tell which points are missing")
        return
    if statuses:
        path = os.path.join(results, "points.csv")
        breakdown = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
        note(f"{path}: {sum(statuses.values())} point(s) have no results ({breakdown}); the figures leave them out")


def metric_scale(unit, values):
    """How a metric of the table's `unit` is drawn: (divisor, unit on the axis)."""
    if unit == "s":
        return time_unit(values)
    if unit == "share":
        return 0.01, "%"
    return 1.0, {"GPU-h": "GPU-hours"}.get(unit, unit)


def plot_sweep(results, writer):
    path = os.path.join(results, "results.csv")
    sweep = Sweep(path)
    note_missing_points(results, sweep.points)
    params, data, xs, others = sweep.params, sweep.values, list(sweep.xs), list(sweep.others)
    drawn = [(m, label, unit) for m, label, unit in sweep_metrics() if m in data]
    if not drawn:
        raise BadInput(f"{path}: no values for any of {', '.join(m for m, _, _ in sweep_metrics())} "
                       "(did every point fail? see points.csv)")
    numeric = bool(params) and all(parses_as_number(x) for x in xs)
    x_order = sorted(xs, key=float) if numeric else xs
    x_name = params[0] if params else "(no swept parameters)"
    other_names = params[1:]

    for metric, label, declared_unit in drawn:
        groups = data[metric]
        divisor, unit = metric_scale(declared_unit, [v for vs in groups.values() for v in vs])
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

