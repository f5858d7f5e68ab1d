// Input files that are not what they claim, refused quickly and briefly (exit 2): an endless
// file, tens of thousands of bad keys, a second YAML document, an empty sweep file, a name no
// directory can have.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

using acmesim::testing::run_acmesim;
using acmesim::testing::write_scratch_file;

namespace {

std::size_t lines(const std::string& text)
{
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

TEST_CASE("hostile input: an endless file is refused at a size limit, not read until memory runs out")
{
  const auto o = run_acmesim("validate /dev/zero");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("/dev/zero: larger than 2 MiB"));
  const auto sweep = run_acmesim("sweep /dev/zero");
  CHECK(sweep.exit_code == 2);
}

TEST_CASE("hostile input: tens of thousands of bad keys give a page of errors, found in linear time")
{
  std::string unknown = "name: x\n", duplicated = "name: x\n";
  for (int i = 0; i < 80000; ++i) {
    unknown += "k" + std::to_string(i) + ": 1\n";
    duplicated += "seed: " + std::to_string(i) + "\n";
  }
  const auto o = run_acmesim("validate '" + write_scratch_file("unknown-keys.yaml", unknown).string() + "'");
  CHECK(o.exit_code == 2);
  CHECK(lines(o.err) < 60);
  CHECK_THAT(o.err, Catch::Contains("more errors, not shown") && Catch::Contains("80002 errors"));
  const auto d = run_acmesim("validate '" + write_scratch_file("duplicate-keys.yaml", duplicated).string() + "'");
  CHECK(d.exit_code == 2);
  CHECK_THAT(d.err, Catch::Contains("duplicate key (already set at"));
}

TEST_CASE("hostile input: a second YAML document is an error, not ignored")
{
  const std::string file = write_scratch_file("two-docs.yaml", "cluster: {preset: seren}\n"
                                                               "workload: {synthetic: {preset: seren, days: 1}}\n"
                                                               "---\n"
                                                               "seed: 7\n")
                               .string();
  const auto o = run_acmesim("validate '" + file + "'");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("two-docs.yaml:3:1") && Catch::Contains("a second YAML document"));
  // Found by fuzzing: reading every document of this made yaml-cpp loop until memory ran out.
  const auto endless = run_acmesim("validate tests/fuzz/corpus/fuzz_scenario/loadall-endless-documents.yaml");
  CHECK(endless.exit_code == 2);
}

TEST_CASE("hostile input: text after a YAML end marker is an error, not ignored")
{
  const std::string file = write_scratch_file("ended.yaml", "cluster: {preset: seren}\n"
                                                            "workload: {synthetic: {preset: seren, days: 1}}\n"
                                                            "...\n"
                                                            "# a comment may follow\n"
                                                            "seed: 7\n")
                               .string();
  const auto o = run_acmesim("validate '" + file + "'");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("ended.yaml:5:1") && Catch::Contains("after the document's end marker"));
  // An end marker with nothing but comments after it is a whole document.
  const std::string whole = write_scratch_file("whole.yaml", "cluster: {preset: seren}\n"
                                                             "workload: {synthetic: {preset: seren, days: 1}}\n"
                                                             "...\n# the end\n")
                                .string();
  CHECK(run_acmesim("validate '" + whole + "'").exit_code == 0);
}

TEST_CASE("hostile input: bins too narrow for how long queueing makes the run are bad input, not a memory blow-up")
{
  // 300 jobs of both nodes and 1,000 s each: the workload spans 1,000 s (a million bins of 1 ms,
  // which the check before the run allows), but the jobs queue one after another for 300,000 s.
  std::string trace = "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,"
                      "queue,gpu_time\n";
  for (int i = 0; i < 300; ++i)
    trace += "j" + std::to_string(i) + ",u,2,16,0,Other,COMPLETED,2023-03-01 00:00:00+08:00,2023-03-01 00:00:00+08:00,"
             "2023-03-01 00:16:40+08:00,1000,0,16000\n";
  write_scratch_file("queued.csv", trace);
  const std::string file = write_scratch_file("narrow-bins.yaml", "cluster: {nodes: 2, gpus_per_node: 8}\n"
                                                                  "workload: {trace: queued.csv, format: acme}\n"
                                                                  "output: {utilisation_bin_s: 0.001}\n")
                               .string();
  CHECK(run_acmesim("validate '" + file + "'").exit_code == 0); // 1,000 s of 1 ms bins: 1e6, allowed
  const auto out = acmesim::testing::scratch() / "narrow-bins";
  const auto o = run_acmesim("run '" + file + "' --out '" + out.string() + "'");
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("output.utilisation_bin_s") && Catch::Contains("past the 2000000 bins") &&
                        Catch::Contains("expected bins of at least"));
  CHECK_FALSE(std::filesystem::exists(out / "summary.json"));
  CHECK_FALSE(std::filesystem::exists(out / "utilisation.csv"));
}

TEST_CASE("hostile input: an empty sweep or plan file is an error, not a run of the default scenario")
{
  const std::string empty = write_scratch_file("empty-sweep.yaml", "").string();
  for (const std::string command : {"sweep", "plan"}) {
    const auto o = run_acmesim(command + " '" + empty + "' --quiet");
    CHECK(o.exit_code == 2);
    CHECK_THAT(o.err, Catch::Contains("the file is empty"));
  }
}

TEST_CASE("hostile input: a name longer than a directory name can be is refused by validate")
{
  const auto o = run_acmesim("validate configs/default-scenario.yaml --set name=" + std::string(256, 'n'));
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("at most 255"));
  CHECK(run_acmesim("validate configs/default-scenario.yaml --set name=" + std::string(255, 'n')).exit_code == 0);
}

TEST_CASE("hostile input: deep nesting and a device as a failure list are named for what they are")
{
  const std::string deep =
      write_scratch_file("deep.yaml", "a: " + std::string(3000, '[') + std::string(3000, ']') + "\n").string();
  const auto nested = run_acmesim("validate '" + deep + "'");
  CHECK(nested.exit_code == 2);
  CHECK_THAT(nested.err, Catch::Contains("nests deeper"));
  const std::string zero = write_scratch_file("zero-failures.yaml", "cluster: {preset: seren}\n"
                                                                    "workload: {synthetic: {preset: seren, days: 1}}\n"
                                                                    "failures: {recorded: /dev/zero}\n")
                               .string();
  const auto device = run_acmesim("validate '" + zero + "'");
  CHECK(device.exit_code == 2);
  CHECK_THAT(device.err, Catch::Contains("failures.recorded") && Catch::Contains("a device, not a failure list"));
  const auto trace = run_acmesim("validate configs/default-scenario.yaml --set 'workload={trace: /dev/zero}'");
  CHECK(trace.exit_code == 2);
  CHECK_THAT(trace.err, Catch::Contains("a device, not a trace file"));
}
