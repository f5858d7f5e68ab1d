#include "models/common/TextFile.hpp"

#include "models/common/InputError.hpp"

#include <fmt/format.h>

#include <fstream>

namespace acmesim {

std::optional<std::string> read_text_file(const std::filesystem::path& path)
{
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  // Read in pieces, so that an endless file stops at the limit.
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > MAX_TEXT_FILE_BYTES)
      throw InputError(Diagnostic{path.string(), "", "",
                                  fmt::format("larger than {} MiB, far more than any scenario, sweep, plan or "
                                              "catalogue file: is it the right file?",
                                              MAX_TEXT_FILE_BYTES >> 20)});
  }
  return text;
}

} // namespace acmesim
