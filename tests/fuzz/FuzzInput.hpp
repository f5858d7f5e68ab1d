#pragma once
// What every fuzz harness shares: the input as text, and the one outcome besides success that
// bad input may have, an InputError. Anything else (a crash, another exception, a leak, undefined
// behaviour, a hang) is a finding.
#include "models/common/InputError.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace acmesim::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size)
{
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Runs `parse`; bad input must end in an InputError, which is fine.
template <typename Parse>
int accept_input_errors(Parse&& parse)
{
  try {
    parse();
  } catch (const InputError&) {
  }
  return 0;
}

} // namespace acmesim::fuzz
