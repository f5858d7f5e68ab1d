// `acmesim report`, run as a user would run it on the results of real run, compare, sweep and plan
// commands over the five-jobs scenario (tests/data/scenarios/five-jobs.yaml), whose answers are
// known by construction: what the page says, that it refers to nothing outside itself, and how
// input it cannot use is refused. tests/sim/cli/test_report_in_chromium.py opens the pages in a
// browser.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;
using acmesim::testing::write_scratch_file;
namespace fs = std::filesystem;

namespace {

const std::string FIVE_JOBS = "tests/data/scenarios/five-jobs.yaml";

std::string in_scratch(const std::string& name) { return "'" + (scratch() / name).string() + "'"; }

std::size_t count(const std::string& text, const std::string& what)
{
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

// Runs `acmesim report DIR` and returns the page it printed the path of.
std::string report_of(const std::string& dir)
{
  const auto o = run_acmesim("report " + in_scratch(dir));
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const fs::path page = scratch() / dir / "report.html";
  CHECK(o.out == page.string() + "\n");
  return slurp(page);
}

// A page that opens offline: no script, stylesheet, frame or image by address, no url() in its
// style; its figures are inline SVG.
void check_self_contained(const std::string& page)
{
  CHECK(page.rfind("<!doctype html>\n", 0) == 0);
  for (const char* outside : {"<script", "<link", "<iframe", "<img", " src=", "@import"}) {
    INFO(outside);
    CHECK(page.find(outside) == std::string::npos);
  }
  // The figures clip to their own shapes, url(#id); nothing else is referred to.
  for (auto at = page.find("url("); at != std::string::npos; at = page.find("url(", at + 1))
    CHECK(page.compare(at, 5, "url(#") == 0);
  CHECK(page.find("</html>\n") == page.size() - 8);
}

} // namespace

TEST_CASE("report: a run's page gives its headline numbers and its five figures inline, and fetches nothing")
{
  const auto run = run_acmesim("run " + FIVE_JOBS + " --quiet --out " + in_scratch("run"));
  REQUIRE(run.exit_code == 0);
  const std::string page = report_of("run");
  check_self_contained(page);
  CHECK(page.find("<title>acmesim run: five-jobs</title>") != std::string::npos);
  // Five jobs of 1,000 s on eight nodes: none waits, the makespan is 1,000 s, 40 of 64 GPUs busy.
  CHECK(page.find("<div class=\"value\">1,000 s (16.7 minutes)</div><div class=\"note\">makespan_s</div>") !=
        std::string::npos);
  CHECK(page.find("<div class=\"value\">0 s</div><div class=\"note\">wait_s.all.mean</div>") != std::string::npos);
  CHECK(page.find("<div class=\"value\">62.5%</div><div class=\"note\">utilisation.mean_gpu_busy</div>") !=
        std::string::npos);
  // The CDFs, utilisation, lost GPU-hours and, as the network model is on by default, slowdown.
  CHECK(count(page, "<svg ") == 5);
  for (const char* figure : {"wait_cdf", "jct_cdf", "utilisation", "lost_gpu_hours", "slowdown"})
    CHECK(page.find(std::string("<figure id=\"figure-") + figure + "\"><svg ") != std::string::npos);
}

// The metrics' own descriptions, declared once for every run, still say GPU.
TEST_CASE("report: a CPU machine's page and figures speak of CPUs, and it has no energy to show")
{
  // The five jobs on a CPU machine (cluster.processors: cpu, as an SWF log's own machine is).
  const auto run = run_acmesim("run " + FIVE_JOBS + " --quiet --set cluster.processors=cpu --set network.model=off "
                               "--out " + in_scratch("cpu"));
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const std::string page = report_of("cpu");
  CHECK(page.find("CPU-hours of capacity unavailable") != std::string::npos);
  CHECK(page.find("CPUs by state over time (five-jobs)") != std::string::npos); // the figure's title
  CHECK(page.find("<th>CPU jobs</th>") != std::string::npos);
  CHECK(page.find("Lost CPU-hours by cause (five-jobs)") != std::string::npos);
  CHECK(page.find("energy.") == std::string::npos);
}

TEST_CASE("report: a comparison's page colours each verdict by its metric's direction")
{
  // B has four nodes: one job waits 1,000 s, so waits, JCTs and the makespan are worse, and power lower.
  const auto o = run_acmesim("compare " + FIVE_JOBS + " --out " + in_scratch("compare") +
                             " --seeds 2 --vs --set cluster.nodes=4");
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const std::string page = report_of("compare");
  check_self_contained(page);
  const auto doc = nlohmann::json::parse(slurp(scratch() / "compare" / "compare.json"));
  std::size_t worse = 0, better = 0;
  for (const auto& m : doc.at("metrics")) {
    CHECK(page.find("<td>" + m.at("metric").get<std::string>() + "</td>") != std::string::npos);
    if (m.at("verdict").is_null() || m.at("better") == "neither")
      continue;
    ((m.at("verdict") == "B lower") == (m.at("better") == "lower") ? better : worse) += 1;
  }
  CHECK(worse >= 5);
  CHECK(better >= 1);
  CHECK(count(page, "<tr class=\"worse\">") == worse);
  CHECK(count(page, "<tr class=\"better\">") == better);
  CHECK(page.find("<div class=\"label\">B worse</div><div class=\"value\">" + std::to_string(worse) + "</div>") !=
        std::string::npos);
  CHECK(count(page, "<svg ") >= 1);
}

TEST_CASE("report: a sweep's page gives one row per setting with its mean over the seeds")
{
  write_scratch_file("nodes-sweep.yaml", "scenario: " + (fs::path(ACMESIM_SOURCE_DIR) / FIVE_JOBS).string() +
                                             "\nseeds: 2\ngrid:\n  cluster.nodes: [2, 4, 6]\n");
  const auto o = run_acmesim("sweep " + in_scratch("nodes-sweep.yaml") + " --quiet --out " + in_scratch("sweep"));
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const std::string page = report_of("sweep");
  check_self_contained(page);
  // Two nodes run the five jobs in three rounds, four in two, six in one.
  CHECK(page.find("<tr><td>2</td><td>3,000 s ± 0 s</td>") != std::string::npos);
  CHECK(page.find("<tr><td>4</td><td>2,000 s ± 0 s</td>") != std::string::npos);
  CHECK(page.find("<tr><td>6</td><td>1,000 s ± 0 s</td>") != std::string::npos);
  CHECK(page.find("<div class=\"label\">points without results</div><div class=\"value\">0</div>") !=
        std::string::npos);
}

TEST_CASE("report: a plan's page gives the answer, its neighbours, its guard, the base beside it and robustness")
{
  write_scratch_file("nodes-plan.yaml",
                     "scenario: " + (fs::path(ACMESIM_SOURCE_DIR) / FIVE_JOBS).string() +
                         "\nseeds: 2\n"
                         "variables:\n  cluster.nodes: {from: 1, to: 8, search: bisect}\n"
                         "cost: {per_unit: {cluster.nodes: 8}, unit: USD}\n"
                         "targets:\n  - {metric: wait_s.all.mean, at_most: 0}\n"
                         "guards:\n  - {metric: jct_s.all.mean, worsens_by_at_most: 0.5}\n"
                         "robustness: {load_scale: [1, 2]}\n");
  const auto o = run_acmesim("plan " + in_scratch("nodes-plan.yaml") + " --quiet --jobs 2 --out " + in_scratch("plan"));
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const std::string page = report_of("plan");
  check_self_contained(page);
  // Five nodes, at 8 USD a node; four (one job waits 1,000 s) is the cheaper neighbour, six the dearer.
  CHECK(page.find("<div class=\"value\">cluster.nodes=5</div>") != std::string::npos);
  CHECK(page.find("<div class=\"value\">40 USD</div>") != std::string::npos);
  CHECK(page.find("<tr><td>cheaper</td><td>cluster.nodes=4</td><td>32 USD</td><td>wait_s.all.mean -200</td>") !=
        std::string::npos);
  CHECK(page.find("<tr><td>dearer</td><td>cluster.nodes=6</td><td>48 USD</td>") != std::string::npos);
  CHECK(page.find("<tr class=\"answer\"><td>answer</td><td>cluster.nodes=5</td>") != std::string::npos);
  // The base has eight nodes: the answer's GPUs are busier, as the base-beside table says.
  CHECK(page.find("<td>utilisation.mean_gpu_busy</td><td>62.5%</td><td>100.0%</td><td>+60.0%</td>") !=
        std::string::npos);
  CHECK(page.find("<td>jct_s.all.mean</td><td>1,000</td><td>+0.0%</td>") != std::string::npos);
  // Twice the load on five nodes: every job runs twice, half of them wait 1,000 s.
  CHECK(page.find("<tr class=\"worse\"><td>×2</td><td>wait_s.all.mean &lt;= 0</td><td>500 s (8.3 minutes)</td>") !=
        std::string::npos);
  CHECK(count(page, "<figure id=\"figure-plan_tradeoff\"><svg ") == 1);
}

TEST_CASE("report: the same results give the same page, byte for byte, and --out - writes it to stdout")
{
  const auto run = run_acmesim("run " + FIVE_JOBS + " --quiet --out " + in_scratch("same"));
  REQUIRE(run.exit_code == 0);
  const std::string first = report_of("same");
  const std::string second = report_of("same");
  CHECK(first == second);
  const auto to_stdout = run_acmesim("report " + in_scratch("same") + " --out -");
  REQUIRE(to_stdout.exit_code == 0);
  CHECK(to_stdout.out == first);
  CHECK_FALSE(fs::exists(scratch() / "same" / "report.html.tmp"));
}

TEST_CASE("report: a directory of no known kind, no directory, and --out naming a directory exit 2")
{
  fs::create_directories(scratch() / "not-results");
  const auto unknown = run_acmesim("report " + in_scratch("not-results"));
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("not an acmesim results directory") != std::string::npos);
  CHECK_FALSE(fs::exists(scratch() / "not-results" / "report.html"));

  const auto missing = run_acmesim("report " + in_scratch("nowhere"));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("no such directory") != std::string::npos);

  const auto run = run_acmesim("run " + FIVE_JOBS + " --quiet --out " + in_scratch("dir-out"));
  REQUIRE(run.exit_code == 0);
  const auto into_dir = run_acmesim("report " + in_scratch("dir-out") + " --out " + in_scratch("not-results"));
  CHECK(into_dir.exit_code == 2);
  CHECK(into_dir.err.find("is a directory; --out names the page's file") != std::string::npos);
}
