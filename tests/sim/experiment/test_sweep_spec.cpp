#include "sim/experiment/SweepSpec.hpp"

#include "sim/config/ScenarioLoader.hpp"
#include "tests/support/InputErrors.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace acmesim;
using acmesim::testing::input_errors;

namespace {

SweepSpec parse(const std::string& text)
{
  return parse_sweep(text, "sweep.yaml", ACMESIM_SOURCE_DIR "/scenarios", "sweep");
}

std::vector<std::string> values_of(const SweepPoint& p)
{
  std::vector<std::string> out;
  for (const auto& v : p.values)
    out.push_back(v.value_or("<unset>"));
  return out;
}

} // namespace

TEST_CASE("a grid expands with its first key slowest and seeds innermost")
{
  const SweepSpec s = parse("scenario: swf-replay.yaml\n"
                            "set: {workload.days: 2}\n"
                            "grid:\n"
                            "  cluster.nodes: [8, 16]\n"
                            "  scheduler.name: [fifo, easy-backfill]\n"
                            "seeds: 2\n"
                            "first_seed: 7\n");
  CHECK(s.scenario == ACMESIM_SOURCE_DIR "/scenarios/swf-replay.yaml");
  CHECK(s.parameters == std::vector<std::string>{"cluster.nodes", "scheduler.name"});
  REQUIRE(s.points.size() == 8);
  CHECK(s.points[0].id == "p0000");
  CHECK(values_of(s.points[0]) == std::vector<std::string>{"8", "fifo"});
  CHECK(s.points[0].seed == 7);
  CHECK(s.points[1].seed == 8);
  CHECK(values_of(s.points[2]) == std::vector<std::string>{"8", "easy-backfill"});
  CHECK(values_of(s.points[7]) == std::vector<std::string>{"16", "easy-backfill"});
  CHECK(s.points[7].id == "p0007");
  CHECK(s.overrides_of(s.points[5]) ==
        std::vector<std::string>{"workload.days=2", "cluster.nodes=16", "scheduler.name=fifo"});
}

TEST_CASE("a list of points may set different keys, and values may be lists or maps")
{
  const SweepSpec s = parse("points:\n"
                            "  - {scheduler.name: fifo}\n"
                            "  - {checkpoint.job_types: [Pretrain, SFT], recovery: {name: auto}}\n"
                            "seeds: [3, 1]\n");
  CHECK(s.scenario.empty());
  CHECK(s.parameters == std::vector<std::string>{"scheduler.name", "checkpoint.job_types", "recovery"});
  REQUIRE(s.points.size() == 4);
  CHECK(values_of(s.points[0]) == std::vector<std::string>{"fifo", "<unset>", "<unset>"});
  CHECK(s.points[0].seed == 3);
  CHECK(s.points[1].seed == 1);
  CHECK(values_of(s.points[2]) == std::vector<std::string>{"<unset>", "[Pretrain, SFT]", "{name: auto}"});
  CHECK(s.overrides_of(s.points[0]) == std::vector<std::string>{"scheduler.name=fifo"});
}

TEST_CASE("a scalar that YAML would read as something else is quoted in its override")
{
  const SweepSpec s = parse("points:\n"
                            "  - {workload.trace: 'a #b.csv'}\n"
                            "  - {workload.trace: '[1]'}\n"
                            "  - {workload.trace: plain.csv}\n");
  REQUIRE(s.points.size() == 3);
  CHECK(s.points[0].values[0] == "\"a #b.csv\"");
  CHECK(s.points[1].values[0] == "\"[1]\"");
  CHECK(s.points[2].values[0] == "plain.csv");
}

TEST_CASE("a sweep of seeds alone runs the base scenario once per seed")
{
  const SweepSpec s = parse("seeds: 3\n");
  REQUIRE(s.points.size() == 3);
  CHECK(s.parameters.empty());
  CHECK(s.points[2].seed == 3);
  CHECK(s.overrides_of(s.points[2]).empty());
}

TEST_CASE("the slurm section gives partition, time limit, throttle and extra sbatch arguments")
{
  const SweepSpec s = parse("seeds: 2\nslurm: {partition: gpu, time_limit: '02:00:00', throttle: 8, extra_args: ["
                            "'--account=llm']}\n");
  CHECK(s.slurm.partition == "gpu");
  CHECK(s.slurm.time_limit == "02:00:00");
  CHECK(s.slurm.throttle == 8);
  CHECK(s.slurm.extra_args == std::vector<std::string>{"--account=llm"});
}

TEST_CASE("malformed sweep files are refused with file, line, key and value")
{
  const auto one = [](const std::string& text) {
    const auto d = input_errors([&] { parse(text); });
    REQUIRE(d.size() == 1);
    return d[0];
  };
  auto d = one("grid: {scheduler.name: []}\n");
  CHECK(d.where == "sweep.yaml:1:24");
  CHECK(d.key == "grid.scheduler.name");
  CHECK_THAT(d.message, Catch::Contains("non-empty list"));
  d = one("grid: {a: [1]}\npoints: [{a: 2}]\n");
  CHECK(d.key == "points");
  CHECK_THAT(d.message, Catch::Contains("either grid or points"));
  d = one("seeds: 0\n");
  CHECK(d.key == "seeds");
  CHECK(d.value == "0");
  d = one("scenario: missing.yaml\n");
  CHECK(d.key == "scenario");
  CHECK_THAT(d.message, Catch::Contains("no such scenario file"));
  d = one("sed: 3\n");
  CHECK(d.key == "sed");
  d = one("grid: {'a=b': [1]}\n");
  CHECK(d.key == "grid.a=b");
  d = one("slurm: {throttle: -1}\n");
  CHECK(d.key == "slurm.throttle");
  d = one("grid: {seed: [1, 2]}\n");
  CHECK(d.key == "grid.seed");
  CHECK_THAT(d.message, Catch::Contains("seeds:"));
  d = one("name: ../up\n");
  CHECK(d.key == "name");
  d = one("first_seed: 18446744073709551615\nseeds: 2\n");
  CHECK(d.key == "seeds");
  d = one("grid: {}\n"); // would run the base scenario alone
  CHECK(d.key == "grid");
  CHECK_THAT(d.message, Catch::Contains("at least one key"));
  d = one("name: nothing\n");
  CHECK_THAT(d.message, Catch::Contains("varies nothing"));
  d = one("seeds: [1, 2, 1]\n"); // the same run twice, as if it were two
  CHECK(d.where == "sweep.yaml:1:15");
  CHECK(d.key == "seeds.2");
  CHECK_THAT(d.message, Catch::Contains("seed 1 is listed twice"));
  const std::string ten = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";
  d = one("grid: {a: " + ten + ", b: " + ten + ", c: " + ten + ", d: " + ten + ", e: " + ten + ", f: " + ten +
          "}\n"); // refused before 10^6 combinations are built
  CHECK(d.key == "grid");
  CHECK_THAT(d.message, Catch::Contains("1000000 combinations"));
  CHECK(input_errors([] { load_sweep_file("/nonexistent/sweep.yaml"); })[0].message ==
        "cannot open the sweep file");
}

TEST_CASE("every shipped sweep file parses and every point's scenario loads")
{
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ACMESIM_SOURCE_DIR "/sweeps")) {
    if (entry.path().extension() != ".yaml")
      continue;
    INFO(entry.path().string());
    ++files;
    const SweepSpec s = load_sweep_file(entry.path().string());
    CHECK(s.points.size() >= 2);
    for (const auto& point : s.points) {
      auto overrides = s.overrides_of(point);
      overrides.push_back("seed=" + std::to_string(point.seed));
      CHECK_NOTHROW(s.scenario.empty() ? load_default_scenario(overrides)
                                       : load_scenario_file(s.scenario, overrides));
    }
  }
  CHECK(files >= 2);
}
