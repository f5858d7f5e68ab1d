// How external schedulers are loaded and checked (sim/plugins): linked into a program, the plugins
// library registers both kinds with the policies' table; a plugin that cannot be used is refused
// with a message naming the file; a scheduler that fails or decides what the run cannot apply is
// stopped with an error naming it and the simulated time. A plugin that schedules is run through
// the real binary (tests/sim/cli/test_plugin_cli.cpp), whose symbols a plugin links against.
#include "sim/plugins/CheckedScheduler.hpp"
#include "sim/plugins/PluginLoader.hpp"
#include "sim/policies/ExternalSchedulers.hpp"
#include "tests/support/HandBuiltView.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

using namespace acmesim;
using acmesim::testing::HandBuiltView;
using acmesim::testing::make_job;
using acmesim::testing::tiny_cluster;

namespace {

std::string load_error(const std::string& path)
{
  try {
    load_scheduler_plugin(path);
  } catch (const PluginLoadError& e) {
    return e.what();
  }
  return "";
}

// A scheduler that does what it is told: throws, or starts the job it is given on node 0.
class Scripted final : public Scheduler {
public:
  explicit Scripted(std::function<Decisions(const ClusterView&)> decide) : decide_(std::move(decide)) {}
  Decisions decide(const ClusterView& view, const std::vector<SchedulerEvent>&) override { return decide_(view); }

private:
  std::function<Decisions(const ClusterView&)> decide_;
};

std::string checked_error(std::function<Decisions(const ClusterView&)> decide)
{
  HandBuiltView view(tiny_cluster(2, 2));
  CheckedScheduler checked("plugin libx.so (x)", std::make_unique<Scripted>(std::move(decide)));
  try {
    view.submit(checked, 5, {make_job(0, 5, 8, 100)});
  } catch (const PluginError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("linking the plugins library registers loaders of both kinds of external scheduler")
{
  CHECK_NOTHROW(external_scheduler(ExternalKind::Plugin));
  CHECK_NOTHROW(external_scheduler(ExternalKind::Python));
  SchedulerSpec spec;
  CHECK_FALSE(external_kind(spec).has_value());
  spec.plugin = "libx.so";
  CHECK(external_kind(spec) == ExternalKind::Plugin);
  spec.python = "x.py";
  CHECK(external_kind(spec) == ExternalKind::Python);
}

TEST_CASE("a plugin that cannot be used is refused, naming the file and why")
{
  const auto dir = std::filesystem::temp_directory_path() / ("acmesim-plugin-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  CHECK_THAT(load_error((dir / "missing.so").string()), Catch::Contains("missing.so: no such file"));
  const auto text = dir / "not-a-library.so";
  std::ofstream(text) << "plain text\n";
  CHECK_THAT(load_error(text.string()), Catch::Contains("not-a-library.so cannot be loaded"));
  CHECK_THAT(load_error(test_old_plugin_PATH),
             Catch::Contains("was built against scheduler interface version " +
                             std::to_string(ACMESIM_SCHEDULER_API_VERSION + 1)));
  std::filesystem::remove_all(dir);
}

TEST_CASE("a checked scheduler names itself and the time when it throws or decides what cannot be applied")
{
  CHECK(checked_error([](const ClusterView&) -> Decisions { throw std::runtime_error("boom"); }) ==
        "scheduler plugin libx.so (x) failed at simulated time 5.000 s: boom");
  CHECK_THAT(checked_error([](const ClusterView&) {
               Decisions d;
               StartDecision start;
               start.job = 7;
               d.starts.push_back(start);
               return d;
             }),
             Catch::Contains("start job 7: it is not waiting in the queue"));
  CHECK_THAT(checked_error([](const ClusterView& view) {
               Decisions d;
               d.wake_at = view.now();
               return d;
             }),
             Catch::Contains("asked to be woken at 5.000 s, not after now"));
  CHECK(checked_error([](const ClusterView&) { return Decisions{}; }).empty());
}

TEST_CASE("a plugin named by a bare file name is the file of the working directory, not one on the library path")
{
  const std::filesystem::path module(test_old_plugin_PATH);
  std::filesystem::current_path(module.parent_path());
  // Loaded (and then refused for its interface version), not "cannot be loaded".
  CHECK_THAT(load_error(module.filename().string()), Catch::Contains("was built against scheduler interface version"));
}
