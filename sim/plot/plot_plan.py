# A part of the `acmesim plot` script: the figure of a plan directory (plan.json, written by
# `acmesim plan`). It uses the names the parts before it define (see acmesim_plot.py).


def plan_candidates(path, plan):
    """[(id, cost, meets_targets, [(mean, bound, met) per target])] from plan.json, checked. A
    candidate of unknown cost (null) is left out; a target its runs give no value (null) is None."""
    out = []
    for i, c in enumerate(plan.get("candidates", [])):
        where = f"{path}: candidates.{i}"
        if not isinstance(c, dict) or not isinstance(c.get("targets"), list):
            raise BadInput(f"{where}: expected a candidate with its targets")
        targets = []
        for t in c["targets"]:
            mean = json_number(t.get("mean"), where, "mean", allow_null=True)
            bound = json_number(t.get("bound"), where, "bound", allow_null=True)
            targets.append(None if mean is None or bound is None else (mean, bound, bool(t.get("met"))))
        cost = json_number(c.get("cost"), where, "cost", allow_null=True)
        if cost is not None:
            out.append((c.get("id"), cost, bool(c.get("meets_targets")), targets))
    return out


def plot_plan(results, writer):
    path = os.path.join(results, "plan.json")
    plan = read_json(path)
    targets = plan.get("targets") if isinstance(plan, dict) else None
    if not isinstance(targets, list) or not targets:
        raise BadInput(f"{path}: expected a plan's targets")
    candidates = plan_candidates(path, plan)
    if not candidates:
        raise BadInput(f"{path}: no candidate was run, or none has a known cost")
    # One panel per target: each candidate's mean over the seeds at its cost, a bar to the
    # one-sided bound the target is judged by, the threshold dashed; the answer ringed.
    fig, axes = plt.subplots(1, len(targets), figsize=(5.5 * len(targets), 4.5), squeeze=False)
    for k, (ax, target) in enumerate(zip(axes[0], targets)):
        most = "at_most" in target
        threshold = json_number(target.get("at_most" if most else "at_least"), path, f"targets.{k}")
        for cid, cost, feasible, values in sorted(candidates, key=lambda c: c[1]):
            if values[k] is None:
                continue  # its runs report no such metric (plan.json: missing)
            mean, bound, met = values[k]
            colour = "tab:green" if feasible else "tab:red"
            ax.plot([cost, cost], [mean, bound], color=colour, linewidth=1.5)
            ax.plot(cost, mean, marker="o", color=colour, fillstyle="full" if met else "none", linestyle="none")
            if cid == plan.get("answer"):
                ax.plot(cost, mean, marker="o", markersize=16, fillstyle="none", color="black", linestyle="none")
        ax.axhline(threshold, color="black", linestyle="--", linewidth=1)
        # Waits near a saturated cluster span decades: a log axis keeps the feasible ones apart.
        drawn = [v for c in candidates if c[3][k] is not None for v in c[3][k][:2]] + [threshold]
        if min(drawn) > 0 and max(drawn) / min(drawn) > 100:
            ax.set_yscale("log")
        ax.set_xlabel(f"cost ({plan.get('cost', '')})")
        metric = target.get("metric", "")
        unit = next((m["unit"] for m in FACTS["metrics"] if m["name"] == metric), "")
        ax.set_ylabel(f"{metric} ({unit})" if unit else metric)
        ax.set_title(f"{target.get('metric', '')} {'<=' if most else '>='} {threshold:g}", fontsize=10)
        ax.grid(True, alpha=0.3)
    fig.suptitle(f"plan '{plan.get('plan', '')}': green meets every target, red misses one;\n"
                 f"filled: this target met; bar: mean to its {100 * plan.get('confidence', 0.95):g}% bound; "
                 "ringed: the answer", fontsize=9)
    fig.tight_layout()
    writer.save(fig, "plan_tradeoff")
