// `acmesim plot`, run as a user would run it, on small results directories written by hand in the
// formats that run, compare and sweep write: which files appear, what they hold, and the exit code
// and message for input it cannot use.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {
using acmesim::testing::CliOutcome;
using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;

fs::path put(const fs::path& path, const std::string& text)
{
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

std::set<std::string> names_in(const fs::path& dir)
{
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    names.insert(entry.path().filename().string());
  return names;
}

// Every line of the command's stdout is the path of a file it wrote.
std::set<std::string> names_printed(const std::string& out)
{
  std::set<std::string> names;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (fs::is_regular_file(line))
      names.insert(fs::path(line).filename().string());
    else
      names.insert("(not a file) " + line);
  return names;
}

bool is_png(const fs::path& p) { return slurp(p).rfind("\x89PNG\r\n\x1a\n", 0) == 0; }

bool is_svg(const fs::path& p)
{
  const std::string text = slurp(p);
  return text.find("<svg ") != std::string::npos && text.find("</svg>") != std::string::npos;
}

// Checks the output directory holds exactly `expected` (names without the extension), each a
// non-empty file of `format`, and that stdout named each of them.
void check_figures(const CliOutcome& o, const fs::path& dir, const std::set<std::string>& expected,
                   const std::string& format)
{
  INFO("stderr: " << o.err);
  REQUIRE(o.exit_code == 0);
  std::set<std::string> files;
  for (const auto& name : expected)
    files.insert(name + "." + format);
  REQUIRE(fs::is_directory(dir));
  CHECK(names_in(dir) == files);
  CHECK(names_printed(o.out) == files);
  for (const auto& name : files) {
    INFO(name);
    CHECK(fs::file_size(dir / name) > 1000);
    CHECK((format == "png" ? is_png(dir / name) : is_svg(dir / name)));
  }
}

const char* JOBS_HEADER = "job_id,type,user,gpus,nodes,cpus,submit_s,start_s,end_s,wait_s,jct_s,state,leaves,"
                          "node_list,interruptions,checkpoints,useful_s,lost_s,checkpoint_s,detection_s,"
                          "waiting_for_person_s,restart_s,ettr\n";

// A run's jobs.csv: GPU jobs of four types (zero waits included), a CPU-only job and a rejected
// job, which the CDFs leave out. `scale` stretches the times, to tell two sides of a comparison apart.
std::string jobs_csv(double scale = 1.0)
{
  std::ostringstream out;
  out << JOBS_HEADER;
  struct Row {
    const char* type;
    int gpus;
    double wait, jct;
  };
  const Row rows[] = {{"Pretrain", 64, 0, 86400}, {"Pretrain", 16, 7200, 40000}, {"Eval", 1, 0, 300},
                      {"Eval", 1, 120, 600},      {"SFT", 8, 3600, 7200},        {"Debug", 1, 30, 60},
                      {"Other", 0, 0, 5}};
  int id = 0;
  for (const auto& r : rows) {
    const double wait = r.wait * scale, jct = r.jct * scale;
    out << "j" << id++ << ',' << r.type << ",u1," << r.gpus << ',' << (r.gpus + 7) / 8 << ",8,0," << wait << ','
        << wait + jct << ',' << wait << ',' << jct << ",COMPLETED,1,n0,0,0," << jct << ",0,0,0,0,0,1.0\n";
  }
  out << "j" << id << ",Eval,u2,2,1,8,5,,,,,REJECTED,0,,0,0,,0,0,0,0,0,\n";
  return out.str();
}

// A real run's summary.json, with lost GPU-hours of every cause: the checked-in golden result of
// the fault-tolerance scenario (tests/golden/). The binary reads it as a run's summary is read.
std::string summary_json()
{
  return slurp(fs::path(ACMESIM_SOURCE_DIR) / "tests/golden/acme-fault-tolerance/summary.json");
}

const char* UTILISATION_CSV =
    "start_s,end_s,idle,busy,stranded,lost_work,checkpoint,detection,waiting_for_person,restart,down,spare,"
    "model_load,cpu_wait\n"
    "0,43200,10,50,0,1,1,0,2,0,0,0,0,0\n"
    "43200,86400,20,40,0,0,1,1,0,1,1,0,0,0\n"
    "86400,93600,60,4,0,0,0,0,0,0,0,0,0,0\n";

fs::path run_dir(const std::string& name, bool with_utilisation = true)
{
  const fs::path dir = scratch() / name;
  put(dir / "jobs.csv", jobs_csv());
  put(dir / "summary.json", summary_json());
  if (with_utilisation)
    put(dir / "utilisation.csv", UTILISATION_CSV);
  return dir;
}

const char* COMPARE_JSON = R"({
  "program": "acmesim test", "confidence": 0.95, "seeds": [1, 2],
  "a": {"label": "A", "scenario": "scenarios/a.yaml", "set": []},
  "b": {"label": "B", "scenario": "scenarios/a.yaml", "set": ["scheduler.name=easy-backfill"]},
  "metrics": [
    {"metric": "makespan_s", "n": 2, "a_mean": 1000, "b_mean": 900, "diff_mean": -100, "diff_ci_low": -150,
     "diff_ci_high": -50, "ratio": 0.9, "ratio_ci_low": 0.85, "ratio_ci_high": 0.95, "verdict": "B lower",
     "better": "lower"},
    {"metric": "utilisation.mean_gpu_busy", "n": 2, "a_mean": 0.5, "b_mean": 0.4, "diff_mean": -0.1,
     "diff_ci_low": -0.15, "diff_ci_high": -0.05, "ratio": 0.8, "ratio_ci_low": 0.7, "ratio_ci_high": 0.9,
     "verdict": "B lower", "better": "higher"},
    {"metric": "wait_s.all.mean", "n": 2, "a_mean": 50, "b_mean": 55, "diff_mean": 5, "diff_ci_low": -10,
     "diff_ci_high": 20, "ratio": 1.1, "ratio_ci_low": 0.8, "ratio_ci_high": 1.4, "verdict": null},
    {"metric": "lost_gpu_hours.total", "n": 2, "a_mean": 0, "b_mean": 3, "diff_mean": 3, "diff_ci_low": null,
     "diff_ci_high": null, "ratio": null, "ratio_ci_low": null, "ratio_ci_high": null, "verdict": null}
  ]
}
)";

// 2 parameters x 2 values x 2 seeds; a null statistic is written as an empty value.
std::string sweep_results_csv()
{
  std::ostringstream out;
  out << "point,scheduler.name,cluster.pods.0.nodes,seed,metric,value\n";
  int point = 0;
  for (const char* scheduler : {"fifo", "easy-backfill"})
    for (int nodes : {4, 8})
      for (int seed : {1, 2}) {
        const std::string prefix = "p000" + std::to_string(point++) + ',' + scheduler + ',' + std::to_string(nodes) +
                                   ',' + std::to_string(seed) + ',';
        const double makespan = 400000.0 / nodes + 1000 * seed;
        out << prefix << "makespan_s," << makespan << '\n'
            << prefix << "wait_s.all.mean," << makespan / 100 << '\n'
            << prefix << "jct_s.all.mean," << makespan / 50 << '\n'
            << prefix << "utilisation.mean_gpu_busy," << 0.3 + 0.01 * nodes + 0.02 * seed << '\n'
            << prefix << "lost_gpu_hours.total," << 10 * seed << '\n'
            << prefix << "wait_s.by_type.Eval.mean,\n";
      }
  return out.str();
}

} // namespace

TEST_CASE("plot: a run directory gives the wait and JCT CDFs, utilisation and lost GPU-hours")
{
  const fs::path dir = run_dir("run");
  const CliOutcome o = run_acmesim("plot " + quoted(dir));
  check_figures(o, dir / "plots", {"wait_cdf", "jct_cdf", "utilisation", "lost_gpu_hours"}, "png");
}

TEST_CASE("plot: utilisation.csv's power column is drawn on its own axis, not stacked as a GPU state")
{
  const fs::path dir = run_dir("run-power");
  put(dir / "utilisation.csv", "start_s,end_s,idle,busy,it_power_kw\n"
                               "0,43200,10,50,20.5\n"
                               "43200,86400,20,40,18.2\n");
  const CliOutcome o = run_acmesim("plot " + quoted(dir) + " --format svg");
  REQUIRE(o.exit_code == 0);
  const std::string svg = slurp(dir / "plots" / "utilisation.svg");
  // matplotlib keeps each text as a comment beside its glyphs.
  CHECK(svg.find("IT power") != std::string::npos);
  CHECK(svg.find("it_power_kw") == std::string::npos); // not in the legend of states
}

TEST_CASE("plot: a run directory without utilisation.csv skips that figure with a note")
{
  const fs::path dir = run_dir("run-no-util", false);
  const CliOutcome o = run_acmesim("plot " + quoted(dir) + " --format svg");
  check_figures(o, dir / "plots", {"wait_cdf", "jct_cdf", "lost_gpu_hours"}, "svg");
  CHECK(o.err.find("utilisation.csv") != std::string::npos);
}

TEST_CASE("plot: the results of a real acmesim run plot")
{
  const fs::path dir = scratch() / "real-run";
  REQUIRE(run_acmesim("run --quiet --out " + quoted(dir)).exit_code == 0);
  const CliOutcome o = run_acmesim("plot " + quoted(dir) + " --out " + quoted(scratch() / "real-plots"));
  // The default scenario runs with the network model: jobs.csv has each job's slowdown.
  std::set<std::string> expected{"wait_cdf", "jct_cdf", "lost_gpu_hours", "slowdown"};
  if (fs::exists(dir / "utilisation.csv"))
    expected.insert("utilisation");
  check_figures(o, scratch() / "real-plots", expected, "png");
}

TEST_CASE("plot: a comparison directory gives the forest plot and the pooled CDFs of A and B")
{
  const fs::path dir = scratch() / "compare";
  put(dir / "compare.json", COMPARE_JSON);
  for (int seed : {1, 2}) {
    put(dir / "runs" / "a" / ("seed-" + std::to_string(seed)) / "jobs.csv", jobs_csv(1.0 + 0.1 * seed));
    put(dir / "runs" / "b" / ("seed-" + std::to_string(seed)) / "jobs.csv", jobs_csv(2.0 + 0.1 * seed));
  }
  const CliOutcome o = run_acmesim("plot " + quoted(dir) + " --format svg");
  check_figures(o, dir / "plots", {"compare", "compare_wait_cdf", "compare_jct_cdf"}, "svg");
  // Coloured by the metric's direction: a lower makespan is better (green), a lower GPU busy share
  // is worse (red), whatever the sign of the difference.
  const std::string forest = slurp(dir / "plots" / "compare.svg");
  CHECK(forest.find("#2ca02c") != std::string::npos); // matplotlib's tab:green
  CHECK(forest.find("#d62728") != std::string::npos); // tab:red
  CHECK(forest.find("#1f77b4") == std::string::npos); // tab:blue: only for metrics with no better way
}

TEST_CASE("plot: a plan directory gives the trade-off of cost against each target, even beside results.csv")
{
  const fs::path dir = scratch() / "plan";
  put(dir / "results.csv", sweep_results_csv()); // a plan directory holds its runs as a sweep's
  put(dir / "plan.json", R"({"plan": "p", "confidence": 0.95, "cost": "8 x cluster.nodes",
    "targets": [{"metric": "wait_s.all.mean", "at_most": 60}, {"metric": "training.ettr.mean", "at_least": 0.9}],
    "answer": "c000002",
    "candidates": [
      {"id": "c000001", "cost": 8, "meets_targets": false,
       "targets": [{"mean": 90, "bound": 120, "met": false}, {"mean": 0.95, "bound": 0.93, "met": true}]},
      {"id": "c000002", "cost": 16, "meets_targets": true,
       "targets": [{"mean": 20, "bound": 40, "met": true}, {"mean": 0.96, "bound": 0.94, "met": true}]}]})");
  const CliOutcome o = run_acmesim("plot " + quoted(dir) + " --format svg");
  check_figures(o, dir / "plots", {"plan_tradeoff"}, "svg");
  // A plan.json without candidates is refused naming it.
  put(dir / "plan.json",
      R"({"plan": "p", "targets": [{"metric": "wait_s.all.mean", "at_most": 60}], "candidates": []})");
  const CliOutcome empty = run_acmesim("plot " + quoted(dir) + " --format svg");
  CHECK(empty.exit_code == 2);
  CHECK_THAT(empty.err, Catch::Contains("plan.json: no candidate was run"));
}

TEST_CASE("plot: a sweep directory gives one figure per metric against the first parameter")
{
  const fs::path dir = scratch() / "sweep";
  put(dir / "results.csv", sweep_results_csv());
  const fs::path out = scratch() / "elsewhere" / "figures";
  const CliOutcome o = run_acmesim("plot " + quoted(dir) + " --out " + quoted(out));
  check_figures(o, out,
                {"sweep_makespan_s", "sweep_wait_s.all.mean", "sweep_jct_s.all.mean", "sweep_utilisation.mean_gpu_busy",
                 "sweep_lost_gpu_hours.total"},
                "png");
  CHECK_FALSE(fs::exists(dir / "plots"));
}

TEST_CASE("plot: a sweep of seeds only gives a single point per metric")
{
  const fs::path dir = scratch() / "seeds-only";
  put(dir / "results.csv", "point,seed,metric,value\np0000,1,makespan_s,1000\np0001,2,makespan_s,1100\n"
                           "p0002,3,makespan_s,1050\n");
  check_figures(run_acmesim("plot " + quoted(dir)), dir / "plots", {"sweep_makespan_s"}, "png");
}

TEST_CASE("plot: a sweep whose seeds repeat one has more values per point than seeds, and still plots")
{
  const fs::path dir = scratch() / "repeated-seed";
  put(dir / "results.csv", "point,seed,metric,value\np0000,1,makespan_s,1000\np0001,1,makespan_s,1100\n");
  check_figures(run_acmesim("plot " + quoted(dir)), dir / "plots", {"sweep_makespan_s"}, "png");
}

TEST_CASE("plot: svg output is byte-identical from run to run")
{
  const fs::path dir = run_dir("run-twice");
  REQUIRE(run_acmesim("plot " + quoted(dir) + " --format svg --out " + quoted(scratch() / "one")).exit_code == 0);
  REQUIRE(run_acmesim("plot " + quoted(dir) + " --format svg --out " + quoted(scratch() / "two")).exit_code == 0);
  const auto names = names_in(scratch() / "one");
  CHECK(names.size() == 4);
  CHECK(names == names_in(scratch() / "two"));
  for (const auto& name : names) {
    INFO(name);
    CHECK(slurp(scratch() / "one" / name) == slurp(scratch() / "two" / name));
  }
}

TEST_CASE("plot: a directory of no known kind exits 2 naming the files it looks for")
{
  const fs::path dir = scratch() / "nothing";
  put(dir / "notes.txt", "hello\n");
  const CliOutcome o = run_acmesim("plot " + quoted(dir));
  CHECK(o.exit_code == 2);
  CHECK(o.err.find("not an acmesim results directory") != std::string::npos);
  CHECK(o.err.find("compare.json") != std::string::npos);
  CHECK(o.err.find("results.csv") != std::string::npos);
  CHECK(o.out.empty());
  CHECK_FALSE(fs::exists(dir / "plots"));
}

TEST_CASE("plot: a garbled results.csv or jobs.csv exits 2 naming the file and line")
{
  const fs::path dir = scratch() / "garbled";
  put(dir / "results.csv", "point,nodes,seed,metric,value\np0000,4,1,makespan_s,100\np0001,8,1,makespan_s,lots\n");
  const CliOutcome o = run_acmesim("plot " + quoted(dir));
  CHECK(o.exit_code == 2);
  CHECK(o.err.find("results.csv:3") != std::string::npos);
  CHECK(o.err.find("'lots' is not a number") != std::string::npos);

  put(dir / "results.csv", "point,nodes,metric,value\np0000,4,makespan_s,100\n");
  const CliOutcome header = run_acmesim("plot " + quoted(dir));
  CHECK(header.exit_code == 2);
  CHECK(header.err.find("results.csv:1") != std::string::npos);
  CHECK(header.err.find("seed") != std::string::npos);

  const fs::path run = run_dir("run-garbled");
  put(run / "jobs.csv", std::string(JOBS_HEADER) + "j0,Eval,u1,1,1,8,0,0,10,0,10,COMPLETED\n");
  const CliOutcome jobs = run_acmesim("plot " + quoted(run));
  CHECK(jobs.exit_code == 2);
  CHECK(jobs.err.find("jobs.csv:2") != std::string::npos);
  CHECK(jobs.err.find("fields") != std::string::npos);
}

TEST_CASE("plot: a summary.json that is not a run's summary exits 2 naming the file and the field")
{
  const fs::path run = run_dir("run-bad-summary");
  std::string text = summary_json();
  const std::string field = "\"makespan_s\": ";
  REQUIRE(text.find(field) != std::string::npos);
  text.replace(text.find(field), field.size(), field + "\"long\", \"was\": ");
  put(run / "summary.json", text);
  const CliOutcome wrong = run_acmesim("plot " + quoted(run));
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.err.find("summary.json: key 'makespan_s'") != std::string::npos);
  CHECK_FALSE(fs::exists(run / "plots"));

  put(run / "summary.json", "{\"scenario_name\": \"cut short\"");
  const CliOutcome cut = run_acmesim("plot " + quoted(run));
  CHECK(cut.exit_code == 2);
  CHECK(cut.err.find("summary.json") != std::string::npos);
  CHECK(cut.err.find("parse error") != std::string::npos);
}

TEST_CASE("plot: a bad --format, a missing directory or no directory at all exit 2")
{
  const fs::path dir = run_dir("run-args");
  const CliOutcome format = run_acmesim("plot " + quoted(dir) + " --format jpg");
  CHECK(format.exit_code == 2);
  CHECK(format.err.find("--format 'jpg'") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "plots"));

  const CliOutcome missing = run_acmesim("plot " + quoted(scratch() / "no-such-dir"));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("no-such-dir") != std::string::npos);
  CHECK(missing.err.find("no such directory") != std::string::npos);

  const CliOutcome file = run_acmesim("plot " + quoted(dir / "jobs.csv"));
  CHECK(file.exit_code == 2);
  CHECK(file.err.find("is not a directory") != std::string::npos);

  const CliOutcome none = run_acmesim("plot");
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("RESULTS_DIR") != std::string::npos);

  const CliOutcome help = run_acmesim("plot --help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--format") != std::string::npos);
}

TEST_CASE("plot --help: the usage, a blank line, then the options, before any other check")
{
  const CliOutcome help = run_acmesim("plot --help");
  CHECK(help.exit_code == 0);
  CHECK(help.err.empty());
  CHECK(help.out.rfind("usage: acmesim plot RESULTS_DIR [--format png|svg] [--out DIR]\n", 0) == 0);
  const std::size_t options = help.out.find("See docs/plots.md.\n\nplot options:\n");
  CHECK(options != std::string::npos);
  CHECK(help.out.find("[ --out ]", options) != std::string::npos);
  // Asking for help is never an error: not without RESULTS_DIR, not with a bad --format.
  CHECK(run_acmesim("plot --format bmp --help").exit_code == 0);
}

TEST_CASE("plot: without python3 or matplotlib the message says what to install")
{
  const fs::path dir = run_dir("run-no-python");
  ::setenv("ACMESIM_PYTHON", (scratch() / "no-such-python3").c_str(), 1);
  const CliOutcome no_python = run_acmesim("plot " + quoted(dir));
  CHECK(no_python.exit_code == 2);
  CHECK(no_python.err.find("needs python3") != std::string::npos);
  ::unsetenv("ACMESIM_PYTHON");

  // A matplotlib that cannot be imported, found first on PYTHONPATH by every interpreter.
  const fs::path fake = scratch() / "fake-site";
  put(fake / "matplotlib" / "__init__.py", "raise ImportError('no matplotlib here')\n");
  ::setenv("PYTHONPATH", fake.c_str(), 1);
  const CliOutcome no_matplotlib = run_acmesim("plot " + quoted(dir));
  ::unsetenv("PYTHONPATH");
  CHECK(no_matplotlib.exit_code == 2);
  CHECK(no_matplotlib.err.find("acmesim plot needs matplotlib (Debian: apt-get install python3-matplotlib)") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(dir / "plots"));
}
