#include "sim/cli/ExperimentBackend.hpp"

#include "models/common/InputError.hpp"
#include "sim/cli/OptionParsing.hpp"
#include "sim/cli/RunCommand.hpp"
#include "sim/experiment/ChildProcesses.hpp"
#include "sim/experiment/SlurmBackend.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace acmesim {

void add_backend_options(po::options_description& options)
{
  options.add_options()("jobs,j", po::value<std::string>(),
                        "runs at once on this machine (default: the number of cores)")(
      "resume", "skip the runs a previous command into the same directory finished")(
      "out,o", po::value<std::string>(), "results directory (default: the file's out:, else results/<name>)")(
      "backend", po::value<std::string>()->default_value("local"), "local, or slurm (one array task per run)")(
      "partition", po::value<std::string>(), "Slurm partition (overrides slurm.partition)")(
      "time-limit", po::value<std::string>(), "Slurm time limit per run, e.g. 01:00:00 (overrides slurm.time_limit)")(
      "throttle", po::value<std::string>(), "most Slurm array tasks running at once, 0: no limit (overrides "
                                            "slurm.throttle)")(
      "quiet,q", "no progress line");
}

ExperimentBackend read_backend_options(const po::variables_map& vm, const SlurmOptions& file_slurm)
{
  ExperimentBackend b;
  const std::string backend = vm["backend"].as<std::string>();
  if (backend != "local" && backend != "slurm")
    throw UsageError("--backend must be local or slurm, not '" + backend + "'");
  b.slurm = backend == "slurm";
  b.jobs = count_option(vm, "jobs", default_parallelism(), 1, 10000);
  b.resume = vm.count("resume") > 0;
  b.quiet = vm.count("quiet") > 0;
  b.slurm_options = file_slurm;
  if (vm.count("partition"))
    b.slurm_options.partition = vm["partition"].as<std::string>();
  if (vm.count("time-limit"))
    b.slurm_options.time_limit = vm["time-limit"].as<std::string>();
  b.slurm_options.throttle = static_cast<int>(
      count_option(vm, "throttle", static_cast<std::uint64_t>(b.slurm_options.throttle), 0, 1000000));
  return b;
}

ExperimentDir experiment_output_dir(const po::variables_map& vm, const std::string& file_out, const std::string& name)
{
  const std::string out = vm.count("out") ? vm["out"].as<std::string>()
                                          : (file_out.empty() ? "results/" + name : file_out);
  ResultsDirLock lock = prepare_output_dir(out);
  return {fs::absolute(out).lexically_normal(), std::move(lock)};
}

void run_prepared(const std::vector<fs::path>& dirs, const fs::path& out, const ExperimentBackend& backend,
                  const std::string& job_name, const SweepProgress& progress)
{
  try {
    if (backend.slurm)
      run_points_on_slurm(dirs, out, SlurmRun{backend.slurm_options, job_name, 1.0}, current_executable(), progress);
    else
      run_points_locally(dirs, backend.jobs, current_executable_link(), progress);
  } catch (const SlurmError& e) {
    throw InputError(Diagnostic{"--backend", "", "slurm", e.what()});
  }
}

} // namespace acmesim
