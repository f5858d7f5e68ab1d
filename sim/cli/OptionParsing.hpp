#pragma once
// Parsing one command's options with Boost.Program_options, the same way for every command:
// anything it cannot understand is a UsageError (exit 2).
#include "sim/cli/Commands.hpp"

#include <boost/program_options.hpp>

#include <string>
#include <vector>

namespace acmesim {

inline boost::program_options::variables_map
parse_options(const std::vector<std::string>& args, const boost::program_options::options_description& options,
              const boost::program_options::positional_options_description& positional = {})
{
  namespace po = boost::program_options;
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return vm;
}

} // namespace acmesim
