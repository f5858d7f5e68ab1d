#include "models/traces/TraceTimestamp.hpp"

#include "models/traces/TraceIo.hpp"

#include <chrono>
#include <string>

namespace acmesim {

namespace {

using trace_io::trim;

// Real-world UTC offsets span -12:00..+14:00; anything larger is a typo, not a zone.
constexpr int MAX_OFFSET_MINUTES = 14 * 60;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads exactly `n` digits at `pos`: shorter or longer digit runs make a malformed field.
bool take_digits(std::string_view s, std::size_t& pos, std::size_t n, int& out)
{
  if (pos + n > s.size())
    return false;
  int value = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (!is_digit(s[i]))
      return false;
    value = value * 10 + (s[i] - '0');
  }
  out = value;
  pos += n;
  return true;
}

bool take_char(std::string_view s, std::size_t& pos, char c)
{
  if (pos >= s.size() || s[pos] != c)
    return false;
  ++pos;
  return true;
}

// "", "Z", "+08:00", "+0800" or "+08" ending the text, to seconds east of UTC ("" is UTC).
std::optional<int> parse_utc_offset(std::string_view s, std::size_t pos)
{
  if (pos == s.size() || (s[pos] == 'Z' && pos + 1 == s.size()))
    return 0;
  if (s[pos] != '+' && s[pos] != '-')
    return std::nullopt;
  const int sign = s[pos++] == '-' ? -1 : 1;
  int hours = 0;
  int minutes = 0;
  if (!take_digits(s, pos, 2, hours))
    return std::nullopt;
  if (pos < s.size()) {
    take_char(s, pos, ':');
    if (!take_digits(s, pos, 2, minutes))
      return std::nullopt;
  }
  if (pos != s.size() || minutes > 59 || hours * 60 + minutes > MAX_OFFSET_MINUTES)
    return std::nullopt;
  return sign * (hours * 3600 + minutes * 60);
}

} // namespace

std::optional<double> parse_timestamp(std::string_view text)
{
  text = trim(text);
  std::size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!take_digits(text, pos, 4, year) || !take_char(text, pos, '-') || !take_digits(text, pos, 2, month) ||
      !take_char(text, pos, '-') || !take_digits(text, pos, 2, day) ||
      !(take_char(text, pos, ' ') || take_char(text, pos, 'T')) || !take_digits(text, pos, 2, hour) ||
      !take_char(text, pos, ':') || !take_digits(text, pos, 2, minute) || !take_char(text, pos, ':') ||
      !take_digits(text, pos, 2, second))
    return std::nullopt;
  // No leap seconds: the trace has none and sys_days cannot represent them.
  if (hour > 23 || minute > 59 || second > 59)
    return std::nullopt;

  double fraction = 0;
  if (take_char(text, pos, '.')) {
    const std::size_t first = pos;
    for (double scale = 0.1; pos < text.size() && is_digit(text[pos]); ++pos, scale /= 10)
      fraction += (text[pos] - '0') * scale;
    if (pos == first)
      return std::nullopt;
  }
  const auto offset = parse_utc_offset(text, pos);
  const std::chrono::year_month_day date{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  if (!offset || !date.ok())
    return std::nullopt;
  const auto days = std::chrono::sys_days{date}.time_since_epoch().count();
  return static_cast<double>(days) * 86400.0 + (hour * 3600 + minute * 60 + second - *offset) + fraction;
}

} // namespace acmesim
