#pragma once
// The waits of a run's jobs.csv beside those its source recorded (the recorded_wait_s column,
// written when the workload recorded any), for `acmesim workload stats --recorded-vs-simulated`.
#include <string>
#include <vector>

namespace acmesim {

struct RunJobWait {
  double recorded_wait_s = -1;  // < 0: the source recorded none
  double simulated_wait_s = -1; // < 0: the job never started in the run
  double run_s = 0;             // from start to end in the run (jct_s - wait_s); 0 if it never started
  int size = 0;                 // the gpus column: an SWF job's processors
};

struct RunJobWaits {
  std::vector<RunJobWait> jobs; // in the file's order
  bool recorded_column = false; // whether jobs.csv has recorded_wait_s at all
};

// Reads `path`, a run's jobs.csv (plain or gzip); InputError naming the file, line, column and
// value for a missing column or a cell that is not a number of seconds (or empty where allowed).
RunJobWaits read_run_job_waits(const std::string& path);

} // namespace acmesim
