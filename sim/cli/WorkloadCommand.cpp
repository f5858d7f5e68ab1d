#include "sim/cli/WorkloadCommand.hpp"

#include "sim/cli/ExitCodes.hpp"
#include "sim/cli/OptionParsing.hpp"

#include "models/acme/AcmeGenerator.hpp"
#include "models/common/InputError.hpp"
#include "models/traces/AcmeTraceWriter.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/report/AtomicFile.hpp"

#include <boost/program_options.hpp>

#include <iostream>
#include <optional>

namespace po = boost::program_options;

namespace acmesim {

int cmd_workload(const std::vector<std::string>& args)
{
  if (args.empty())
    throw UsageError("workload needs a subcommand: generate or stats");
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args.front() == "generate")
    return cmd_workload_generate(rest);
  if (args.front() == "stats")
    return cmd_workload_stats(rest);
  throw UsageError("unknown workload subcommand '" + args.front() + "'; expected generate or stats");
}

int cmd_workload_generate(const std::vector<std::string>& args)
{
  po::options_description options("workload generate options");
  options.add_options()("help,h", "show this help")("preset", po::value<std::string>(),
                                                    "seren, kalos or acme (both clusters)")(
      "days", po::value<double>()->default_value(30), "days of arrivals (0 < days <= 3650)")(
      "seed", po::value<std::uint64_t>()->default_value(42), "random seed")(
      "gpu-jobs-per-day", po::value<double>()->default_value(0), "GPU jobs a day (0: the published rate)")(
      "out,o", po::value<std::string>(), "trace file to write (Acme CSV); - for standard output");
  const po::variables_map vm = parse_options(args, options);
  if (vm.count("help")) {
    std::cout << "usage: acmesim workload generate --preset seren|kalos|acme [--days N] [--seed S] -o trace.csv\n\n"
              << options;
    return EXIT_OK;
  }
  if (!vm.count("preset") || !vm.count("out"))
    throw UsageError("workload generate needs --preset and -o");
  AcmeGeneratorSpec spec;
  spec.days = vm["days"].as<double>();
  spec.gpu_jobs_per_day = vm["gpu-jobs-per-day"].as<double>();
  if (!(spec.days > 0 && spec.days <= 3650))
    throw UsageError("--days must be in (0, 3650]");
  if (!(spec.gpu_jobs_per_day >= 0 && spec.gpu_jobs_per_day <= 1e6))
    throw UsageError("--gpu-jobs-per-day must be in [0, 1e6]");
  const std::string preset = vm["preset"].as<std::string>();
  if (preset != "seren" && preset != "kalos" && preset != "acme")
    throw UsageError("unknown --preset '" + preset + "'; expected " + ACME_PRESETS);
  const std::string out = vm["out"].as<std::string>();
  const auto refused = [&out](const std::runtime_error& e) { return InputError(Diagnostic{"-o", "", out, e.what()}); };
  // The output is opened first: a path that cannot be written is refused before the work.
  std::optional<AtomicFile> file;
  try {
    file.emplace(out);
  } catch (const std::runtime_error& e) {
    throw refused(e);
  }
  const Workload w = generate_acme_preset(embedded_published_acme(), preset, spec, vm["seed"].as<std::uint64_t>());
  try {
    write_acme_trace(file->stream(), w, ACME_TRACE_ORIGIN_EPOCH_S, ACME_TRACE_UTC_OFFSET_S);
    file->commit();
  } catch (const std::runtime_error& e) {
    throw refused(e);
  }
  std::size_t gpu_jobs = 0;
  for (const Job& j : w.jobs)
    gpu_jobs += j.cpu_only() ? 0 : 1;
  // With -o - the trace is standard output: what was written is said on stderr instead.
  (out == "-" ? std::cerr : std::cout) << w.jobs.size() << " jobs (" << gpu_jobs << " GPU, "
                                       << w.jobs.size() - gpu_jobs << " CPU-only) over " << spec.days
                                       << " days, calibrated to the published Acme " << preset
                                       << " distributions: " << out << '\n';
  return EXIT_OK;
}

} // namespace acmesim
