#pragma once
// Reading a small input file (a scenario, a sweep file, a catalogue) whole.
#include <filesystem>
#include <optional>
#include <string>

namespace acmesim {

// The file's bytes; nullopt when it cannot be opened or is a directory.
std::optional<std::string> read_text_file(const std::filesystem::path& path);

} // namespace acmesim
