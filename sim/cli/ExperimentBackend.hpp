#pragma once
// The options and the running of prepared runs that `sweep` and `plan` share: --jobs, --resume,
// --out, --backend local|slurm and the Slurm settings, each flag taking precedence over the file.
#include "sim/experiment/ExperimentFile.hpp"
#include "sim/experiment/SweepRunner.hpp"
#include "sim/report/ResultsDir.hpp"

#include <boost/program_options.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace acmesim {

struct ExperimentBackend {
  bool slurm = false;
  std::size_t jobs = 1; // runs at once on this machine
  bool resume = false;
  bool quiet = false;
  SlurmOptions slurm_options;
};

void add_backend_options(boost::program_options::options_description& options);

// Reads the options added above; `file_slurm` holds the file's Slurm settings.
ExperimentBackend read_backend_options(const boost::program_options::variables_map& vm,
                                       const SlurmOptions& file_slurm);

// --out, else the file's out:, else results/<name>; made ready for writing, and held by this
// process while the object lives.
struct ExperimentDir {
  std::filesystem::path path;
  ResultsDirLock lock;
};
ExperimentDir experiment_output_dir(const boost::program_options::variables_map& vm, const std::string& file_out,
                                    const std::string& name);

// Runs the prepared run directories, on this machine or as one Slurm array named `job_name`.
void run_prepared(const std::vector<std::filesystem::path>& dirs, const std::filesystem::path& out,
                  const ExperimentBackend& backend, const std::string& job_name, const SweepProgress& progress);

} // namespace acmesim
