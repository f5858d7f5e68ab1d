#pragma once
#include "sim/cli/Logging.hpp"
#include "sim/config/Scenario.hpp"
#include "sim/report/ResultsDir.hpp"

#include <memory>
#include <stdexcept>
#include <string>

namespace acmesim {

// Creates the results directory before anything is simulated, so a bad --out is bad input
// (exit 2) found in a second, not an error after a long run, and takes this process's hold on it:
// a directory another process writes into is bad input too. Keep the lock until the results are
// written.
[[nodiscard]] ResultsDirLock prepare_output_dir(const std::string& out);

// Hands `owned` over to the end of the process, for a command that is about to exit: the system
// takes the memory back at once, where freeing the structures of a six-month run piece by piece
// takes tens of milliseconds. Held from a static list, it is no leak to LeakSanitizer.
void keep_until_exit(std::shared_ptr<const void> owned);

// The scheduler left jobs queued with nothing else to happen: the partial results are written,
// with INCOMPLETE instead of summary.json; the command exits 1 with this message.
struct RunStalled : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Simulates, writes the results into `out_dir` and prints a short summary on stdout; throws
// RunStalled after writing the partial results of a run whose scheduler stalled.
int run_scenario(const Scenario& scenario, const Workload& workload, const std::string& out_dir, Verbosity verbosity);

} // namespace acmesim
