// SIGINT and SIGTERM through the real binary: a run stops between two instants, says it was
// interrupted, writes no results (INCOMPLETE says why) and exits 128 + the signal; a sweep stops
// its running points, starts no more, reports which were interrupted, and --resume runs exactly
// those. The runs are slowed by a Python policy that takes 20 ms over each call, so that a signal
// sent once the run has begun finds it running; each script waits for a line the process prints
// before it sends the signal. Scripts run under `set -m`: a shell without job control starts
// background processes with SIGINT ignored, which acmesim then leaves ignored.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

using acmesim::testing::scratch;
using acmesim::testing::slurp;
using acmesim::testing::write_scratch_file;

namespace {

const std::string POLICY_FILE = std::string(ACMESIM_SOURCE_DIR) + "/tests/sim/plugins/fixtures/test_policy.py";

// A day of the default scenario's jobs (about 1,800: thousands of calls, a minute of policy time).
const std::string SLOW_RUN = "--set workload.synthetic.days=1 --set scheduler.name=py-fifo --set scheduler.class=Fifo "
                             "--set scheduler.python='" + POLICY_FILE + "' --set scheduler.params.mode=9";

// The run has begun: it said so on stderr.
const std::string RUN_BEGUN = "grep -qF \"scenario 'default'\" \"$err\"";

struct Interrupted {
  int exit_code = -1;
  std::string err;
};

// Starts `acmesim ARGS` in the background with stderr to `name`.err ($err in `ready`), waits (at
// most 5 minutes) until the shell condition `ready` holds, sends SIGNAL to the process and gives
// its exit code.
Interrupted interrupt(const std::string& name, const std::string& args, const std::string& signal,
                      const std::string& ready)
{
  const std::string err = (scratch() / (name + ".err")).string();
  const auto code = scratch() / (name + ".code");
  const std::string script = "set -m\n"
                             "err='" + err + "'\n"
                             "cd '" + std::string(ACMESIM_SOURCE_DIR) + "'\n'" + ACMESIM_BINARY + "' " + args +
                             " >/dev/null 2>\"$err\" &\n"
                             "pid=$!\n"
                             "for i in $(seq 6000); do kill -0 $pid || break; " + ready +
                             " 2>/dev/null && break; sleep 0.05; done\n"
                             "kill -" + signal + " $pid\n"
                             "wait $pid\n"
                             "echo $? >'" + code.string() + "'\n";
  const auto path = write_scratch_file(name + ".sh", script);
  REQUIRE(std::system(("bash '" + path.string() + "'").c_str()) == 0);
  return {std::stoi(slurp(code)), slurp(err)};
}

} // namespace

namespace {

// Runs the slow run into `name`, sends SIGNAL (INT or TERM) once it has begun, and checks that it
// stopped as an interrupted run does: the exit code, the message, no result files, INCOMPLETE
// saying why. Gives the results folder.
std::filesystem::path check_run_interrupted(const std::string& name, const std::string& signal, int exit_code)
{
  const auto out = scratch() / name;
  const Interrupted r = interrupt(name, "run " + SLOW_RUN + " --out '" + out.string() + "'", signal, RUN_BEGUN);
  INFO(r.err);
  const std::string said = "interrupted by SIG" + signal;
  CHECK(r.exit_code == exit_code);
  CHECK(r.err.find(said + " at simulated time ") != std::string::npos);
  CHECK(r.err.find("the run stopped and wrote no results") != std::string::npos);
  CHECK(r.err.find("internal error") == std::string::npos);
  CHECK(r.err.find("Traceback") == std::string::npos);
  for (const char* file : {"summary.json", "jobs.csv", "utilisation.csv"})
    CHECK_FALSE(std::filesystem::exists(out / file));
  CHECK(slurp(out / "INCOMPLETE").find(said) != std::string::npos);
  return out;
}

} // namespace

TEST_CASE("cli: SIGTERM stops a run between two instants: exit 143, interrupted, no results, INCOMPLETE says why")
{
  const auto out = check_run_interrupted("term", "TERM", 143);
  // What reads a run's results refuses the folder, quoting why.
  const auto plotted = acmesim::testing::run_acmesim("report '" + out.string() + "' --out -");
  CHECK(plotted.exit_code == 2);
  CHECK(plotted.err.find("an incomplete run's directory (INCOMPLETE says: interrupted by SIGTERM") !=
        std::string::npos);
  const auto waits = acmesim::testing::run_acmesim("workload stats --recorded-vs-simulated '" + out.string() + "'");
  CHECK(waits.exit_code == 2);
  CHECK(waits.err.find("an incomplete run's directory") != std::string::npos);
}

TEST_CASE("cli: Ctrl-C (SIGINT) stops a run with a Python policy: exit 130, interrupted, no results")
{
  // The embedded interpreter leaves SIGINT to acmesim (it takes it only from the default handler).
  check_run_interrupted("int", "INT", 130);
}

TEST_CASE("cli: an interrupted sweep stops its running point, starts no more, says which, and --resume runs those")
{
  // p0000 runs the Python policy at full speed; p0001 and p0002 are slow. One at a time: the sweep
  // is interrupted while p0001 runs.
  const std::string sweep = write_scratch_file("interrupted-sweep.yaml",
                                               "set: {workload.synthetic.days: 1, scheduler.name: py-fifo, "
                                               "scheduler.class: Fifo, scheduler.python: '" + POLICY_FILE + "'}\n"
                                               "grid: {scheduler.params.mode: [0, 9, 9]}\n")
                                .string();
  const auto out = scratch() / "sweep";
  const std::string args = "sweep '" + sweep + "' --jobs 1 --quiet --out '" + out.string() + "'";
  // Once p0000 has ended, p0001 is started; a second later it runs.
  const Interrupted r =
      interrupt("sweep", args, "INT", "test -e '" + (out / "points/p0000/status.json").string() + "' && sleep 1");
  INFO(r.err);
  CHECK(r.exit_code == 130);
  // p0001 stops at its next instant (or, had SIGTERM come before its handler was set, dies of it).
  CHECK_THAT(r.err,
             Catch::Contains("interrupted point p0001: exit code 143: interrupted by SIGTERM at simulated time") ||
                 Catch::Contains("interrupted point p0001: killed by signal 15"));
  // Either way it left no results, where the point that finished did.
  CHECK(std::filesystem::exists(out / "points/p0000/summary.json"));
  CHECK_FALSE(std::filesystem::exists(out / "points/p0001/summary.json"));
  CHECK(r.err.find("interrupted point p0002: not started: interrupted by SIGINT before it began") != std::string::npos);
  CHECK(r.err.find("interrupted by SIGINT while sweep 'interrupted-sweep' ran: 2 points were interrupted or not "
                   "started (points.csv); the same command with --resume runs them and keeps the 1 finished") !=
        std::string::npos);
  const std::string points = slurp(out / "points.csv");
  INFO(points);
  const auto status_of = [&](const std::string& point) {
    const auto line = points.find("\n" + point + ",");
    const auto end = points.find('\n', line + 1);
    const std::string row = line == std::string::npos ? "" : points.substr(line + 1, end - line - 1);
    for (const char* status : {",finished,", ",interrupted,", ",failed,"})
      if (row.find(status) != std::string::npos)
        return std::string(status);
    return row;
  };
  CHECK(status_of("p0000") == ",finished,");
  CHECK(status_of("p0001") == ",interrupted,");
  CHECK(status_of("p0002") == ",interrupted,");
  CHECK(std::filesystem::exists(out / "points/p0000/summary.json"));
  CHECK_FALSE(std::filesystem::exists(out / "points/p0001/summary.json"));

  // Resumed, it runs the two interrupted points and keeps p0000 (stopped again once it says so).
  const Interrupted resumed =
      interrupt("resumed", args + " --resume", "TERM", "grep -qF '2 to run, 1 already finished' \"$err\"");
  INFO(resumed.err);
  CHECK(resumed.exit_code == 143);
  CHECK(resumed.err.find("sweep 'interrupted-sweep': 3 points, 2 to run, 1 already finished") != std::string::npos);
}
