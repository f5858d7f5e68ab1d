// utilisation.csv and timeline.json of runs small enough to work out by hand (docs/outputs.md).
// One TEST_CASE per process (one engine per process): no SECTIONs here.
#include "sim/report/Reports.hpp"
#include "tests/support/RecordedFailures.hpp"
#include "tests/support/SimRun.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p)
{
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh results directory per test process.
fs::path results_dir(const std::string& name)
{
  const fs::path dir = fs::temp_directory_path() / ("acmesim-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

std::vector<std::vector<double>> csv_numbers(const std::string& text)
{
  std::vector<std::vector<double>> rows;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line); // header
  while (std::getline(lines, line)) {
    std::vector<double> row;
    std::istringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ','))
      row.push_back(std::stod(field));
    rows.push_back(row);
  }
  return rows;
}

FailureEvent node_crash(double t, NodeId node, double repair_s)
{
  return failure(t, Component::Node, node, FailureCategory::NodeFailure, repair_s);
}

using Lane = std::pair<int, int>; // (pid, tid)

// Complete events by lane, each lane in time order.
std::map<Lane, std::vector<Json>> complete_events(const Json& trace)
{
  std::map<Lane, std::vector<Json>> lanes;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "X")
      lanes[{e["pid"].get<int>(), e["tid"].get<int>()}].push_back(e);
  for (auto& [lane, events] : lanes)
    std::stable_sort(events.begin(), events.end(),
                     [](const Json& a, const Json& b) { return a["ts"].get<double>() < b["ts"].get<double>(); });
  return lanes;
}

void check_no_overlap(const std::map<Lane, std::vector<Json>>& lanes)
{
  for (const auto& [lane, events] : lanes)
    for (std::size_t i = 1; i < events.size(); ++i) {
      INFO("pid " << lane.first << " tid " << lane.second << ": " << events[i - 1].dump() << " then "
                  << events[i].dump());
      CHECK(events[i - 1]["ts"].get<double>() + events[i - 1]["dur"].get<double>() <= events[i]["ts"].get<double>());
    }
}

// (ts, dur, name, ended) of an X event, in microseconds as written.
using Piece = std::tuple<double, double, std::string, std::string>;
constexpr double us = 1e6;

Piece summary_of(const Json& e)
{
  return {e["ts"].get<double>(), e["dur"].get<double>(), e["name"].get<std::string>(),
          e["args"].contains("ended") ? e["args"]["ended"].get<std::string>() : std::string()};
}

// j0 takes both nodes at 0. tiny-n1 crashes at 3000 and is back at 3100. j0 keeps tiny-n0's
// GPUs through detection (60 s) and the person's 600 s, is requeued at 3660, starts again at
// once on both nodes and ends at 3660 + 60 (health check) + 10000. j1 (4 GPUs, submitted at 1)
// waits for GPUs until tiny-n1 is back: it runs there from 3100 to 3200, on the node's lowest
// lanes. The timeline.json of that run.
Json manual_recovery_timeline()
{
  Scenario s = with_failures(hand_built_scenario(tiny_cluster(2, 2), "fifo"), "manual", {node_crash(3000, 1, 100)});
  s.output.timeline = true;
  const Workload w =
      hand_built_workload({make_job(0, 0, 16, 10000, JobType::Pretrain), make_job(1, 1, 4, 100, JobType::Eval)});
  const RunResult r = run_simulation(s, w);
  REQUIRE(r.run->jobs().record(0).end_s == 3660 + 60 + 10000);
  REQUIRE(r.run->timeline() != nullptr);
  const fs::path dir = results_dir("timeline");
  write_results(dir, s, r, summarise_run(s, w, r));
  Json trace = Json::parse(read_file(dir / "timeline.json"));
  fs::remove_all(dir);
  return trace;
}

std::vector<Json> events_of_phase(const Json& trace, const char* phase)
{
  std::vector<Json> events;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == phase)
      events.push_back(e);
  return events;
}


} // namespace

TEST_CASE("utilisation.csv of a hand-computed run: mean GPUs per state in each bin, columns summing to the ledger")
{
  // j0 asks 12 GPUs: both nodes of 8, 4 of them stranded, from 0 to 150. j1 (4 GPUs, submitted
  // at 10) waits for them and runs from 150 to 250. Bins of 100 s, the last one 50 s long.
  Scenario s = hand_built_scenario(tiny_cluster(2, 2), "fifo");
  s.output.utilisation_bin_s = 100;
  const Workload w = hand_built_workload({make_job(0, 0, 12, 150), make_job(1, 10, 4, 100)});
  const RunResult r = run_simulation(s, w);
  REQUIRE(r.makespan_s == 250);
  CHECK(r.run->timeline() == nullptr);

  const fs::path dir = results_dir("utilisation");
  write_results(dir, s, r, summarise_run(s, w, r));
  CHECK_FALSE(fs::exists(dir / "utilisation.csv.partial"));
  std::string zeros10;
  for (int column = 0; column < 10; ++column)
    zeros10 += ",0.000000";
  // Power per bin under the default model: busy GPUs at 230 W, idle and stranded ones at 60 W,
  // two servers at 980 W.
  CHECK(read_file(dir / "utilisation.csv") ==
        "start_s,end_s,idle,busy,stranded,lost_work,preempted,checkpoint,detection,waiting_for_person,restart,down,"
        "spare,model_load,cpu_wait,it_power_kw\n"
        "0.000,100.000,0.000000,12.000000,4.000000" + zeros10 + ",4.960\n" +
        // 12 busy and 4 stranded for 50 s, then 4 busy for 50 s.
        "100.000,200.000,6.000000,8.000000,2.000000" + zeros10 + ",4.280\n" +
        "200.000,250.000,12.000000,4.000000,0.000000" + zeros10 + ",3.600\n");

  // Each column times its bin width sums to the ledger's total for that state (the states a run
  // without the network model reports).
  const auto rows = csv_numbers(read_file(dir / "utilisation.csv"));
  const Ledger& ledger = r.run->ledger();
  std::size_t column = 2;
  for (GpuState state : enum_values<GpuState>()) {
    if (!state_reported(state, s.network.on()))
      continue;
    double gpu_seconds = 0;
    for (const auto& row : rows)
      gpu_seconds += row.at(column) * (row[1] - row[0]);
    INFO(to_string(state));
    CHECK(gpu_seconds == Approx(ledger.gpu_seconds(state)).margin(1e-6));
    ++column;
  }
  CHECK(rows.front().size() == column + 1); // and the power column
  fs::remove_all(dir);
}

TEST_CASE("timeline.json is neither recorded nor written when output.timeline is off, and a stale one goes")
{
  const Scenario s = hand_built_scenario(tiny_cluster(1, 1), "fifo");
  const Workload w = hand_built_workload({make_job(0, 0, 8, 10)});
  const RunResult r = run_simulation(s, w);
  CHECK(r.run->timeline() == nullptr);
  const fs::path dir = results_dir("no-timeline");
  fs::create_directories(dir);
  std::ofstream(dir / "timeline.json") << "{}"; // from an earlier run with the timeline on
  write_results(dir, s, r, summarise_run(s, w, r));
  CHECK(fs::exists(dir / "summary.json"));
  CHECK(fs::exists(dir / "utilisation.csv"));
  CHECK_FALSE(fs::exists(dir / "timeline.json"));
  CHECK(Json::parse(read_file(dir / "summary.json"))["scenario"]["output"] ==
        Json{{"timeline", false}, {"utilisation_bin_s", 3600.0}});
  fs::remove_all(dir);
}

TEST_CASE("timeline after a node crash under manual recovery: the run, its processes and lanes named")
{
  const Json trace = manual_recovery_timeline();
  CHECK(trace["displayTimeUnit"] == "ms");
  CHECK(trace["otherData"]["scenario"] == "hand-built");
  CHECK(trace["otherData"]["seed"] == 1);
  std::map<std::pair<int, int>, std::string> thread_names;
  std::map<int, std::string> process_names;
  for (const auto& e : events_of_phase(trace, "M")) {
    if (e["name"] == "process_name")
      process_names[e["pid"].get<int>()] = e["args"]["name"].get<std::string>();
    if (e["name"] == "thread_name")
      thread_names[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"].get<std::string>();
  }
  CHECK(process_names ==
        std::map<int, std::string>{{0, "cluster"}, {1, "pod tiny / tiny-n0"}, {2, "pod tiny / tiny-n1"}});
  CHECK(thread_names.at({1, 0}) == "health");
  CHECK(thread_names.at({1, 1}) == "GPU 0");
  CHECK(thread_names.at({2, 8}) == "GPU 7");
  CHECK(thread_names.size() == 1 + 2 * 9);
}

TEST_CASE("timeline after a node crash under manual recovery: each GPU lane holds attempts, recovery and j1")
{
  const auto lanes = complete_events(manual_recovery_timeline());
  check_no_overlap(lanes);
  // tiny-n0: attempt 1, the failed job holding its GPUs until requeued, attempt 2.
  for (int tid = 1; tid <= 8; ++tid) {
    INFO("tiny-n0 GPU " << tid - 1);
    std::vector<Piece> got;
    for (const auto& e : lanes.at({1, tid}))
      got.push_back(summary_of(e));
    CHECK(got == std::vector<Piece>{{0, 3000 * us, "job 0 Pretrain", "interrupted"},
                                    {3000 * us, 660 * us, "job 0 Pretrain (failed)", "requeued"},
                                    {3660 * us, 10060 * us, "job 0 Pretrain", "finished"}});
  }
  // tiny-n1: lost at the crash, so no recovery piece; j1 on GPUs 0-3 once it is back.
  for (int tid = 1; tid <= 8; ++tid) {
    INFO("tiny-n1 GPU " << tid - 1);
    std::vector<Piece> expected{{0, 3000 * us, "job 0 Pretrain", "interrupted"}};
    if (tid <= 4)
      expected.push_back({3100 * us, 100 * us, "job 1 Eval", "finished"});
    expected.push_back({3660 * us, 10060 * us, "job 0 Pretrain", "finished"});
    std::vector<Piece> got;
    for (const auto& e : lanes.at({2, tid}))
      got.push_back(summary_of(e));
    CHECK(got == expected);
  }
  const Json& second = lanes.at({2, 1}).back();
  CHECK(second["cat"] == "Pretrain");
  CHECK(second["args"] == Json{{"job", "j0"},      {"id", 0},          {"type", "Pretrain"},   {"gpus", 16},
                               {"attempt", 2},     {"state", "running"}, {"ended", "finished"}});
  CHECK(lanes.at({1, 1})[1]["args"]["state"] == "recovering");
}

TEST_CASE("timeline after a node crash under manual recovery: the outage and the crash on the health lane")
{
  const Json trace = manual_recovery_timeline();
  const auto lanes = complete_events(trace);
  CHECK_FALSE(lanes.count({1, 0}));
  REQUIRE(lanes.at({2, 0}).size() == 1);
  const Json& down = lanes.at({2, 0})[0];
  CHECK(summary_of(down) == Piece{3000 * us, 100 * us, "down", ""});
  CHECK(down["args"] == Json{{"node", "tiny-n1"}, {"cause", "node_failure"}, {"component", "node"}});

  const std::vector<Json> instants = events_of_phase(trace, "i");
  REQUIRE(instants.size() == 1);
  CHECK(instants[0]["pid"] == 2);
  CHECK(instants[0]["tid"] == 0);
  CHECK(instants[0]["s"] == "p");
  CHECK(instants[0]["ts"] == 3000 * us);
  CHECK(instants[0]["args"]["category"] == "node_failure");
  CHECK(instants[0]["args"]["component"] == "node");
  CHECK(instants[0]["args"]["target"] == "tiny-n1");
}

TEST_CASE("timeline after a node crash under manual recovery: one counter sample per utilisation bin")
{
  // Bins of 3600 s: 16 GPUs held by j0 in the first hour.
  const std::vector<Json> counters = events_of_phase(manual_recovery_timeline(), "C");
  REQUIRE(counters.size() == 4);
  CHECK(counters[0]["ts"] == 0);
  CHECK(counters[3]["ts"] == 3 * 3600 * us);
  CHECK(counters[1]["args"]["down"].get<double>() == 0);
  // First hour: 16 held to 3000, then 8 (tiny-n0, recovering) to 3600, and j1's 4 for 100 s; 8
  // down from 3000 to 3100.
  CHECK(counters[0]["args"]["held"].get<double>() == Approx((16 * 3000 + 8 * 600 + 4 * 100) / 3600.0));
  CHECK(counters[0]["args"]["down"].get<double>() == Approx(8 * 100 / 3600.0));
  // The work lost at the crash was done from 0 to 3000: only j1 was busy in that hour.
  CHECK(counters[0]["args"]["busy"].get<double>() == Approx(4 * 100 / 3600.0));
}

TEST_CASE("timeline under automatic recovery with a hot spare: the job restarts in place on the spare")
{
  // Three nodes, the last one a hot spare. j0 (16 GPUs) runs on tiny-n0 and tiny-n1; tiny-n1
  // crashes at 1000 (back at 2000, when it refills the spare pool). After 60 s of detection and
  // 120 s of diagnosis j0 takes the spare tiny-n2 and restarts in place at 1180.
  Scenario s = with_failures(hand_built_scenario(tiny_cluster(3, 3), "fifo"), "auto+spares",
                             {node_crash(1000, 1, 1000)});
  s.recovery.params["spare_nodes"] = 1;
  s.recovery.params["diagnosis_s"] = 120;
  s.output.timeline = true;
  const Workload w = hand_built_workload({make_job(0, 0, 16, 2000, JobType::Pretrain)});
  const RunResult r = run_simulation(s, w);
  const double restart = 1000 + 60 + 120;
  const double end = restart + 60 + 2000;
  REQUIRE(r.run->jobs().record(0).end_s == end);

  const fs::path dir = results_dir("timeline-spares");
  write_results(dir, s, r, summarise_run(s, w, r));
  const Json trace = Json::parse(read_file(dir / "timeline.json"));
  const auto lanes = complete_events(trace);
  check_no_overlap(lanes);
  const auto pieces = [&](int pid, int tid) {
    std::vector<Piece> got;
    if (lanes.count({pid, tid}))
      for (const auto& e : lanes.at({pid, tid}))
        got.push_back(summary_of(e));
    return got;
  };
  CHECK(pieces(1, 1) == std::vector<Piece>{{0, 1000 * us, "job 0 Pretrain", "interrupted"},
                                           {1000 * us, 180 * us, "job 0 Pretrain (failed)", "restarted in place"},
                                           {restart * us, 2060 * us, "job 0 Pretrain", "finished"}});
  CHECK(pieces(2, 8) == std::vector<Piece>{{0, 1000 * us, "job 0 Pretrain", "interrupted"}});
  CHECK(pieces(3, 8) == std::vector<Piece>{{restart * us, 2060 * us, "job 0 Pretrain", "finished"}});
  // Health lanes: tiny-n2 a spare until taken; tiny-n1 down, then the new spare to the end.
  CHECK(pieces(3, 0) == std::vector<Piece>{{0, restart * us, "spare", ""}});
  CHECK(pieces(2, 0) ==
        std::vector<Piece>{{1000 * us, 1000 * us, "down", ""}, {2000 * us, (end - 2000) * us, "spare", ""}});
  CHECK(lanes.at({2, 0})[1]["args"]["until_run_end"] == true);
  CHECK(lanes.at({3, 8})[0]["args"]["attempt"] == 2);
  fs::remove_all(dir);
}
