#pragma once
// The start of every command that takes bare (positional) arguments: its options parsed, --help
// answered with the command's usage text followed by its options, a missing required bare
// argument refused.
#include "sim/cli/ExitCodes.hpp"
#include "sim/cli/OptionParsing.hpp"

#include <boost/program_options.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

// The bare arguments of a command: the option they are values of, how many it takes, and the
// message of the UsageError when it needs one and has none (nullptr: none needed).
struct BareArguments {
  const char* option;
  int count;
  const char* missing = nullptr;
};

// Parses `args`; anything it cannot understand is a UsageError. nullopt once --help has printed
// `usage` and the options: the command then has nothing left to do.
inline std::optional<boost::program_options::variables_map>
parse_command_line(const std::vector<std::string>& args, const boost::program_options::options_description& options,
                   const BareArguments& bare, std::string_view usage)
{
  boost::program_options::positional_options_description positional;
  positional.add(bare.option, bare.count);
  auto vm = parse_options(args, options, positional);
  if (vm.count("help")) {
    std::cout << usage << options;
    return std::nullopt;
  }
  if (bare.missing && !vm.count(bare.option))
    throw UsageError(bare.missing);
  return vm;
}

} // namespace acmesim
