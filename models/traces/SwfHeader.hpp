#pragma once
// The machine an SWF log's header describes: the comment lines before its first job line carry
// "; Key: value" fields (SWF 2.2), of which "Computer", "MaxNodes" and "MaxProcs" say what the
// log ran on. A scenario that replays the log and gives no cluster takes its cluster from them.
#include <cstddef>
#include <istream>
#include <optional>
#include <string>

namespace acmesim {

struct SwfHeaderCount {
  long long value = 0;
  std::size_t line = 0; // 1-based line of the header field
};

struct SwfMachine {
  std::string computer;                    // "" if the header does not say
  std::optional<SwfHeaderCount> max_nodes; // "MaxNodes"
  std::optional<SwfHeaderCount> max_procs; // "MaxProcs"
};

// Reads the header comments up to the first job line; keys are matched without regard to case.
// A MaxNodes or MaxProcs that is not a positive whole number is an InputError naming
// "<source>:<line>", the field and its value.
SwfMachine read_swf_machine(std::istream& in, const std::string& source);
SwfMachine read_swf_machine_file(const std::string& path);

} // namespace acmesim
