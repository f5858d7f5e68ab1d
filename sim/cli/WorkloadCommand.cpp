#include "sim/cli/WorkloadCommand.hpp"

#include "sim/cli/Commands.hpp"

namespace acmesim {

int cmd_workload(const std::vector<std::string>& args)
{
  if (args.empty())
    throw UsageError("workload needs a subcommand: stats");
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args.front() == "stats")
    return cmd_workload_stats(rest);
  throw UsageError("unknown workload subcommand '" + args.front() + "'; expected stats");
}

} // namespace acmesim
