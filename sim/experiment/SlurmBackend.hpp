#pragma once
// Running a sweep's points as one Slurm job array: one array task per point, each running
// `acmesim sweep-task TASKS INDEX`, which runs the point that line INDEX of TASKS names. The
// results directory must be on a file system the compute nodes share (as home and project
// directories are on most clusters); results are gathered from it as for a local sweep.
#include "sim/experiment/SweepRunner.hpp"
#include "sim/experiment/SweepSpec.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace acmesim {

// Thrown when Slurm cannot be used (no sbatch, a refused submission): bad input, exit 2.
struct SlurmError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SlurmRun {
  SlurmOptions options;
  std::string job_name;
  double poll_s = 1; // how often squeue is asked whether the array is done
};

// Submits the prepared points in `dirs` as an array job and waits until Slurm has no task of it
// left; reports progress from the status files the tasks write.
void run_points_on_slurm(const std::vector<std::filesystem::path>& dirs, const std::filesystem::path& out,
                         const SlurmRun& run, const std::string& acmesim, const SweepProgress& progress);

// The body of one array task: runs the point of line `index` (0-based) of `tasks_file` and
// writes its status. Returns the run's exit code.
int run_sweep_task(const std::filesystem::path& tasks_file, std::size_t index, const std::string& acmesim);

} // namespace acmesim
