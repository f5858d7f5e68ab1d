#include "models/common/TextFile.hpp"

#include <fstream>
#include <sstream>

namespace acmesim {

std::optional<std::string> read_text_file(const std::filesystem::path& path)
{
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace acmesim
