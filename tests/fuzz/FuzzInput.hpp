#pragma once
// What every fuzz harness shares: the input as text, and the one outcome besides success that
// bad input may have, an InputError. Anything else (a crash, another exception, a leak, undefined
// behaviour, a hang) is a finding.
#include "models/common/InputError.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace acmesim::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size)
{
  return std::string(reinterpret_cast<const char*>(data), size);
}

// For a parser that opens files: the input written to this process's own file in the temporary
// folder, `name` with the process id, rewritten for each input and removed when the process exits.
inline const std::string& as_file(const std::uint8_t* data, std::size_t size, const std::string& name)
{
  struct File {
    std::string path;
    ~File() { std::remove(path.c_str()); }
  };
  static const File file{(std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-" + name)).string()};
  std::ofstream out(file.path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return file.path;
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
