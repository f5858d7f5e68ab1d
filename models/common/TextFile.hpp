#pragma once
// Reading a small input file (a scenario, a sweep file, a catalogue) whole.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace acmesim {

// The largest input read whole: 2 MiB is hundreds of times any scenario, sweep, plan or catalogue
// file, and YAML's tree of it stays within a few hundred MB.
inline constexpr std::size_t MAX_TEXT_FILE_BYTES = 2u << 20;

// The file's bytes; nullopt when it cannot be opened or is a directory. Throws InputError, naming
// the file, when it holds more than MAX_TEXT_FILE_BYTES (/dev/zero, a trace given as a scenario).
std::optional<std::string> read_text_file(const std::filesystem::path& path);

} // namespace acmesim
