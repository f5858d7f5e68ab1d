#include "models/common/Text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace acmesim {

std::string format_number(double value)
{
  // The fewest significant digits that read back as the value...
  char buf[40];
  int digits = 1;
  for (; digits < 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    if (std::strtod(buf, nullptr) == value)
      break;
  }
  // ... written out in full below 10^16, so that 3650 is not "3.65e+03".
  const double magnitude = std::abs(value);
  if (magnitude >= 1 && magnitude < 1e16)
    digits = std::max(digits, static_cast<int>(std::floor(std::log10(magnitude))) + 1);
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  return buf;
}

std::string csv_field(std::string_view text)
{
  if (!needs_csv_quotes(text))
    return std::string(text);
  std::ostringstream out;
  out << std::quoted(text, '"', '"');
  return out.str();
}

namespace {

// A name that becomes a directory is one plain path part.
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; }

} // namespace

bool is_safe_name(const std::string& name)
{
  return !name.empty() && name.size() <= MAX_NAME_LENGTH && name.front() != '.' &&
         std::all_of(name.begin(), name.end(), is_name_char);
}

std::string safe_name(std::string name)
{
  for (char& c : name)
    if (!is_name_char(c))
      c = '_';
  if (name.empty() || name.front() == '.')
    name.insert(name.begin(), '_');
  if (name.size() > MAX_NAME_LENGTH)
    name.resize(MAX_NAME_LENGTH);
  return name;
}

} // namespace acmesim
