#pragma once
// Text that the program writes in more than one place: numbers in messages, fields of CSV files,
// lists of names.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace acmesim {

// The shortest %g text that reads back as the same number: "0.1", "1000000000", "1e+300".
// Messages show a value as it was written, without a tail of rounding digits.
std::string format_number(double value);

// A CSV field, quoted only when it holds a comma, a quote or a line break (RFC 4180: quotes
// doubled), so that ordinary names stay bare.
std::string csv_field(std::string_view text);
// Whether csv_field quotes `text`: writers of large files copy the others as they are.
inline bool needs_csv_quotes(std::string_view text)
{
  // One pass; find_first_of would search the four characters for every byte of the text.
  return std::any_of(text.begin(), text.end(), [](char c) { return c == ',' || c == '"' || c == '\n' || c == '\r'; });
}

// Names that become a directory (a scenario's under results/, a sweep's points): letters, digits,
// '.', '_' and '-', not starting with '.', at most MAX_NAME_LENGTH long (a file name's limit on
// Linux). safe_name() replaces anything else with '_' and cuts what is longer.
inline constexpr std::size_t MAX_NAME_LENGTH = 255;
bool is_safe_name(const std::string& name);
std::string safe_name(std::string name);

// "a, b, c", for messages: any range of strings.
template <typename Range>
std::string join_names(const Range& names)
{
  return fmt::to_string(fmt::join(names, ", "));
}

} // namespace acmesim
