#pragma once
// Running the points of a sweep and gathering what they wrote. The layout of a sweep's results
// directory is the same whichever backend ran the points:
//
//   OUT/points/p0000/   point.json (what to run), the run's jobs.csv, summary.json, ...,
//                       stdout.log, stderr.log, status.json (how the process ended)
//   OUT/results.csv     one row per finished point and metric
//   OUT/points.csv      one row per point: its parameters, status and error
//
// point.json is all a point's process needs, so a Slurm array task on another machine runs a
// point from it alone; status.json is written by whoever saw the process end.
#include "sim/experiment/ChildProcesses.hpp"
#include "sim/experiment/SweepSpec.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace acmesim {

// Points done so far (finished or failed) and how many of them failed.
using SweepProgress = std::function<void(std::size_t done, std::size_t failed)>;

std::filesystem::path point_dir(const std::filesystem::path& out, const SweepPoint& point);

// Whether a previous sweep finished this very point (same scenario, overrides and seed).
bool point_finished(const std::filesystem::path& out, const SweepSpec& spec, const SweepPoint& point);

// Creates the point's directory with its point.json, removing the status of an earlier try.
void prepare_point(const std::filesystem::path& out, const SweepSpec& spec, const SweepPoint& point);

// `acmesim run [scenario] --set ... --seed S --out dir --quiet`, its stdout and stderr in
// dir/stdout.log and dir/stderr.log; an empty scenario is the embedded default.
ChildCommand run_process(const std::string& acmesim, const std::string& scenario,
                         const std::vector<std::string>& overrides, std::uint64_t seed,
                         const std::filesystem::path& dir);

// The run process of the point prepared in `dir`, as point.json describes it.
ChildCommand point_command(const std::filesystem::path& dir, const std::string& acmesim);

// dir/status.json: how the run process of `dir` ended.
void write_run_status(const std::filesystem::path& dir, const ChildExit& exit);

// Runs the prepared points in `dirs`, at most `parallel` at once, on this machine.
void run_points_locally(const std::vector<std::filesystem::path>& dirs, std::size_t parallel,
                        const std::string& acmesim, const SweepProgress& progress);

// Whether the run in `dir` failed, and why (read from status.json and stderr.log); empty when
// it finished.
std::string run_error(const std::filesystem::path& dir);
// Whether the run in `dir` was stopped, or never started, because of a SIGINT or SIGTERM.
bool run_interrupted(const std::filesystem::path& dir);

struct PointFailure {
  std::string point;
  std::string error;
  bool interrupted = false; // stopped, or not started, by SIGINT or SIGTERM
};

struct SweepOutcome {
  std::size_t finished = 0;
  std::vector<PointFailure> failures;
};

// Writes results.csv and points.csv from every point's directory, in point order. A point's
// status there is finished, failed, or interrupted (its run, or the sweep before it started, was
// stopped by SIGINT or SIGTERM: --resume runs it).
SweepOutcome gather_sweep(const std::filesystem::path& out, const SweepSpec& spec);

// The most values a results.csv holds for one metric at one setting of the parameters (its seeds,
// or more when a grid or the seeds repeat a value): the sample size of a figure's widest band.
// 0 if it cannot be read.
std::size_t largest_sample(const std::filesystem::path& results_csv);

} // namespace acmesim
