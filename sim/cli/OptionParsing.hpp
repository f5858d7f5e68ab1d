#pragma once
// Parsing one command's options with Boost.Program_options, the same way for every command:
// anything it cannot understand is a UsageError (exit 2).
#include "sim/cli/ExitCodes.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <cstdint>

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

// A whole number option in [min, max]. Read from its text because Boost's conversion to an
// unsigned type accepts "-1" and wraps it to the largest value.
inline std::uint64_t count_option(const boost::program_options::variables_map& vm, const std::string& name,
                                  std::uint64_t fallback, std::uint64_t min, std::uint64_t max)
{
  if (!vm.count(name))
    return fallback;
  const std::string text = vm[name].as<std::string>();
  const auto fail = [&] {
    return UsageError(fmt::format("--{} must be a whole number from {} to {}, not '{}'", name, min, max, text));
  };
  // At most 20 digits, and no more than 2^64 - 1 when there are 20: stoull cannot overflow.
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos ||
      (text.size() == 20 && text > "18446744073709551615"))
    throw fail();
  const std::uint64_t v = std::stoull(text);
  if (v < min || v > max)
    throw fail();
  return v;
}

} // namespace acmesim
