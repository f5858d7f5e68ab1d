"""`acmesim report` pages opened in headless Chromium, as a reader would open them: for a run, a
comparison, a sweep and a plan of the five-jobs scenario, the page loads with no console error or
warning, no uncaught exception and no request but for the page itself; every figure is laid out at a
readable size; and a screenshot shows the page's header and ink inside the first figure's box.
A page made to break each of these rules first shows the checks can fail.

usage: test_report_in_chromium.py ACMESIM_BINARY SOURCE_DIR
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from headless_page import open_page  # noqa: E402

# What the page's own DOM says: its title, the box of every inline figure and the header's colour.
PAGE_FACTS = """({
  title: document.title,
  figures: [...document.querySelectorAll('figure > svg')].map(s => {
    const b = s.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; }),
  header: getComputedStyle(document.querySelector('header')).backgroundColor,
})"""
HEADER_RGB = (0x1F, 0x3A, 0x5F)  # REPORT_STYLE's header background

BROKEN_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>broken</title></head><body>
<header>x</header><script>console.error("made to fail"); notDefined();</script>
<img src="missing.png"><img src="https://example.invalid/remote.png"></body></html>
"""

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def acmesim(binary, *args, cwd):
    done = subprocess.run([binary, *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"acmesim {' '.join(args)} exited {done.returncode}: {done.stderr}")


def pixels(png):
    """The screenshot as rows of (r, g, b) in 0..255."""
    import matplotlib.image
    image = matplotlib.image.imread(png)
    return (image[:, :, :3] * 255).round().astype(int)


def check_broken_page(work):
    """The checks on a page made to break them: each kind of fault is reported."""
    path = os.path.join(work, "broken.html")
    with open(path, "w") as f:
        f.write(BROKEN_PAGE)
    seen = open_page(path, os.path.join(work, "broken.png"), PAGE_FACTS)
    text = "\n".join(seen["problems"])
    check("made to fail" in text, f"a console.error is reported: {seen['problems']}")
    check("notDefined" in text, f"an uncaught exception is reported: {seen['problems']}")
    check("missing.png" in text, f"a failed load is reported: {seen['problems']}")
    check(any(r.startswith("https://") for r in seen["requests"]), f"a request out is seen: {seen['requests']}")


def check_report(work, kind, figures_expected):
    page = os.path.join(work, kind, "report.html")
    shot = os.path.join(work, f"{kind}.png")
    seen = open_page(page, shot, PAGE_FACTS)
    facts = seen["facts"]
    check(seen["problems"] == [], f"{kind}: no console errors, warnings or exceptions: {seen['problems']}")
    check(seen["requests"] == ["file://" + os.path.abspath(page)], f"{kind}: the page alone is loaded: "
                                                                    f"{seen['requests']}")
    check(facts["title"].startswith("acmesim "), f"{kind}: title {facts['title']!r}")
    check(len(facts["figures"]) == figures_expected,
          f"{kind}: {figures_expected} figures laid out, found {len(facts['figures'])}")
    for x, y, width, height in facts["figures"]:
        check(width >= 300 and height >= 200, f"{kind}: a figure laid out {width:.0f} x {height:.0f} px")
    image = pixels(shot)
    check(tuple(image[10, 10]) == HEADER_RGB, f"{kind}: the header drawn at the top, found {tuple(image[10, 10])}")
    # Ink inside the first figure's box, where it lies within the screenshot: the SVG was drawn.
    visible = [f for f in facts["figures"] if f[1] + f[3] <= image.shape[0]]
    if visible:
        x, y, width, height = (int(v) for v in visible[0])
        box = image[y:y + height, x:x + width]
        ink = float((box.sum(axis=2) < 3 * 200).mean())
        check(ink > 0.01, f"{kind}: the first figure has ink in its box ({100 * ink:.2f}% of its pixels)")
    else:
        check(False, f"{kind}: no figure within the first screen to look at")


def main():
    binary, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="acmesim-report-") as work:
        check_broken_page(work)
        scenario = os.path.join(source, "tests", "data", "scenarios", "five-jobs.yaml")
        with open(os.path.join(work, "sweep.yaml"), "w") as f:
            f.write(f"scenario: {scenario}\nseeds: 2\ngrid:\n  cluster.nodes: [2, 4]\n")
        with open(os.path.join(work, "plan.yaml"), "w") as f:
            f.write(f"scenario: {scenario}\nseeds: 2\nvariables:\n  cluster.nodes: {{from: 1, to: 8, search: bisect}}\n"
                    "cost: {per_unit: {cluster.nodes: 8}}\ntargets:\n  - {metric: wait_s.all.mean, at_most: 0}\n")
        acmesim(binary, "run", scenario, "--quiet", "--out", "run", cwd=work)
        acmesim(binary, "compare", scenario, "--out", "compare", "--seeds", "2", "--vs", "--set", "cluster.nodes=4",
                cwd=work)
        acmesim(binary, "sweep", "sweep.yaml", "--quiet", "--out", "sweep", cwd=work)
        acmesim(binary, "plan", "plan.yaml", "--quiet", "--out", "plan", cwd=work)
        # Figures per page: a run's five, compare's forest plot and two pooled CDFs, a sweep's six
        # headline metrics, the plan's trade-off.
        for kind, figures in (("run", 5), ("compare", 3), ("sweep", 6), ("plan", 1)):
            acmesim(binary, "report", kind, cwd=work)
            check_report(work, kind, figures)
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("every page renders with no console error, fetches nothing and draws its figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
