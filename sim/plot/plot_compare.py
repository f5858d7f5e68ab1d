# A part of the `acmesim plot` script: the figures of a comparison directory. It uses the names
# the parts before it define (plot_common.py comes first; see acmesim_plot.py for the whole script).


def side_description(side, path, name):
    if not isinstance(side, dict):
        raise BadInput(f"{path}: {name}: expected an object with label, scenario and set")
    label = str(side.get("label") or name.upper())
    sets = side.get("set") or []
    text = " ".join([str(side.get("scenario") or "(default scenario)")] + [str(s) for s in sets])
    return label, text if len(text) <= 90 else text[:87] + "..."


class Comparison:
    """compare.json, checked: each side's label and description, the seeds, the confidence level,
    and rows of (metric, {ratio, ratio_ci_low, ratio_ci_high, diff_mean}, verdict, better)."""

    def __init__(self, path):
        doc = read_json(path)
        if not isinstance(doc, dict) or not isinstance(doc.get("metrics"), list) or not doc["metrics"]:
            raise BadInput(f"{path}: expected an object with a non-empty 'metrics' list")
        self.label_a, self.text_a = side_description(doc.get("a"), path, "a")
        self.label_b, self.text_b = side_description(doc.get("b"), path, "b")
        self.seeds = doc.get("seeds")
        if not isinstance(self.seeds, list):
            raise BadInput(f"{path}: seeds: expected a list of seeds")
        self.confidence = json_number(doc.get("confidence", 0.95), path, "confidence")
        self.rows = []
        for i, m in enumerate(doc["metrics"]):
            where = f"metrics[{i}]"
            if not isinstance(m, dict) or not isinstance(m.get("metric"), str):
                raise BadInput(f"{path}: {where}: expected an object with a 'metric' name")
            get = {k: json_number(m.get(k), path, f"{where}.{k}", allow_null=True)
                   for k in ("ratio", "ratio_ci_low", "ratio_ci_high", "diff_mean")}
            better = m.get("better", "neither")
            if better not in ("lower", "higher", "neither"):
                raise BadInput(f"{path}: {where}.better: expected lower, higher or neither")
            self.rows.append((m["metric"], get, m.get("verdict"), better))


def plot_compare(results, writer):
    comparison = Comparison(os.path.join(results, "compare.json"))
    plot_relative_differences(comparison, writer)
    runs = os.path.join(results, "runs")
    if not os.path.isdir(runs):
        note(f"{runs}: no such directory; skipping the pooled CDFs of the two sides")
        return
    plot_pooled_cdfs(comparison, runs, writer)


def verdict_colour(verdict, better):
    """Green where B is better by the metric's direction, red where it is worse, blue where the
    metric has no better direction; grey without a verdict."""
    if not verdict:
        return "0.35"
    if better == "neither":
        return "tab:blue"
    b_lower = verdict == "B lower"
    return "tab:green" if b_lower == (better == "lower") else "tab:red"


def draw_difference(ax, y, v, verdict, better):
    """One metric's row: its relative difference with the CI, and the same in words at the right."""
    colour = verdict_colour(verdict, better)
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


def plot_relative_differences(c, writer):
    rows = c.rows
    fig, ax = plt.subplots(figsize=(9, 1.9 + 0.3 * max(len(rows), 1)))
    for y, (metric, v, verdict, better) in enumerate(rows):
        draw_difference(ax, y, v, verdict, better)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=8)
    for tick, (_, _, verdict, _) in zip(ax.get_yticklabels(), rows):
        if verdict:
            tick.set_fontweight("bold")
    ax.set_ylim(len(rows) - 0.5, -0.5)  # first metric on top
    ax.set_xlabel(f"relative difference of the means, {c.label_b}/{c.label_a} - 1 (%), "
                  f"with its {100 * c.confidence:.0f}% CI")
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_title(f"{c.label_b} vs {c.label_a} over {len(c.seeds)} seed{'s' if len(c.seeds) != 1 else ''} "
                 f"(highlighted: the CI excludes 0; green: B better, red: B worse)\n{c.label_a}: {c.text_a}\n{c.label_b}: {c.text_b}",
                 fontsize=9)
    writer.save(fig, "compare")


def plot_pooled_cdfs(c, runs, writer):
    """The GPU jobs of every seed's run, pooled per side: one CDF of each side per figure."""
    pooled = {}
    for side in ("a", "b"):
        waits, jcts = [np.empty(0)], [np.empty(0)]
        for seed in c.seeds:
            w, j = read_gpu_jobs(os.path.join(runs, side, f"seed-{seed}", "jobs.csv"))
            waits += w.values()
            jcts += j.values()
        pooled[side] = (np.concatenate(waits), np.concatenate(jcts))
    for index, (figure, what) in enumerate((("compare_wait_cdf", "queueing delay"),
                                            ("compare_jct_cdf", "job completion time"))):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        cdf_axes(ax, what, [(label, pooled[side][index], colour) for side, label, colour in
                            (("a", c.label_a, "tab:gray"), ("b", c.label_b, "tab:blue")) if len(pooled[side][index])])
        ax.set_title(f"{what.capitalize()} of all GPU jobs, pooled over {len(c.seeds)} seeds", pad=14)
        writer.save(fig, figure)
