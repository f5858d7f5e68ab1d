#include "sim/keys/CheckedReader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace acmesim {

namespace {

// The text of a YAML number without surrounding blanks and a leading '+', which from_chars rejects.
std::string_view number_text(std::string_view s)
{
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  if (s.size() > 1 && s.front() == '+')
    s.remove_prefix(1);
  return s;
}

} // namespace

std::optional<double> parse_double(std::string_view text)
{
  const std::string_view s = number_text(text);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

// --- NumberRange -----------------------------------------------------------------------------

bool NumberRange::contains(double value) const
{
  if (integer && value != std::floor(value))
    return false;
  if (min_exclusive ? !(value > min) : !(value >= min))
    return false;
  if (value > 0 && value < floor_above_zero)
    return false;
  return value <= max;
}

std::string NumberRange::describe() const
{
  const std::string limits = bounds();
  const std::string kind = integer ? "an integer" : "a number";
  if (floor_above_zero > 0)
    return "0, or " + kind + " " + limits.substr(std::string_view("0, or ").size());
  return kind + (limits.empty() ? "" : " " + limits);
}

std::string NumberRange::bounds() const
{
  const bool has_min = std::isfinite(min);
  const bool has_max = std::isfinite(max) && max < 1e300;
  if (floor_above_zero > 0 && has_max)
    return "0, or between " + format_number(floor_above_zero) + " and " + format_number(max);
  if (has_min && has_max && !min_exclusive)
    return "between " + format_number(min) + " and " + format_number(max);
  std::string out;
  if (has_min)
    out += std::string(min_exclusive ? "> " : ">= ") + format_number(min);
  if (has_max)
    out += std::string(has_min ? " and <= " : "<= ") + format_number(max);
  return out;
}

NumberRange any_number() { return {}; }
NumberRange at_least(double min) { return {min, false}; }
NumberRange positive() { return {0, true}; }
NumberRange positive_up_to(double max)
{
  NumberRange r = positive();
  r.max = max;
  return r;
}
NumberRange integer_at_least(double min)
{
  NumberRange r{min, false};
  r.integer = true;
  return r;
}

NumberRange integer_between(double min, double max)
{
  NumberRange r{min, false, max};
  r.integer = true;
  return r;
}

NumberRange number_between(double min, double max) { return {min, false, max}; }

// --- ConfigChecker ---------------------------------------------------------------------------

std::string ConfigChecker::resolve(const std::string& path) const
{
  const std::filesystem::path written(path);
  return (written.is_absolute() ? written : std::filesystem::path(base_dir_) / written).lexically_normal().string();
}

bool check_readable_file(ConfigChecker& checker, const ConfigNode& node, const std::string& key,
                         const std::string& path, const std::string& what, const std::string& hint)
{
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec))
    checker.error(node, key,
                  what + " not found: " + path + " (a relative path starts at the scenario's directory" +
                      (hint.empty() ? "" : "; " + hint) + ")");
  else if (fs::is_character_file(path, ec) || fs::is_block_file(path, ec))
    checker.error(node, key, "a device, not a " + what + ": " + path);
  else if (fs::is_directory(path, ec) || !std::ifstream(path).good())
    checker.error(node, key, what + " cannot be read: " + path);
  else
    return true;
  return false;
}

void ConfigChecker::error(const ConfigNode& node, const std::string& key, const std::string& message)
{
  diags_.add(node.where, key, node.text(), message);
}

void ConfigChecker::error(const std::string& where, const std::string& key, const std::string& value,
                          const std::string& message)
{
  diags_.add(where, key, value, message);
}

std::optional<double> ConfigChecker::number(const ConfigNode& node, const std::string& key, const NumberRange& range)
{
  const std::optional<double> v = node.is_scalar() ? parse_double(node.scalar) : std::nullopt;
  if (!v || !range.contains(*v)) {
    error(node, key, "expected " + range.describe());
    return std::nullopt;
  }
  return v;
}

std::optional<int> ConfigChecker::integer(const ConfigNode& node, const std::string& key, const NumberRange& range)
{
  NumberRange r = range;
  r.integer = true;
  const std::optional<double> v = number(node, key, r);
  if (!v)
    return std::nullopt;
  constexpr double int_max = std::numeric_limits<int>::max();
  if (std::abs(*v) > int_max) {
    error(node, key, "expected " + r.describe() + " (at most " + format_number(int_max) + " in magnitude)");
    return std::nullopt;
  }
  return static_cast<int>(*v);
}

std::optional<std::uint64_t> ConfigChecker::unsigned64(const ConfigNode& node, const std::string& key)
{
  if (node.is_scalar()) {
    const std::string_view s = number_text(node.scalar);
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (!s.empty() && ec == std::errc{} && end == s.data() + s.size())
      return v;
  }
  error(node, key, "expected an integer between 0 and " + std::to_string(std::numeric_limits<std::uint64_t>::max()));
  return std::nullopt;
}

std::optional<std::string> ConfigChecker::string(const ConfigNode& node, const std::string& key)
{
  if (!node.is_scalar() || node.scalar.empty()) {
    error(node, key, "expected a non-empty string");
    return std::nullopt;
  }
  return node.scalar;
}

bool ConfigChecker::expect_map(const ConfigNode& node, const std::string& key)
{
  if (node.is_map())
    return true;
  error(node, key, "expected a map (key: value lines or {key: value, ...})");
  return false;
}

bool ConfigChecker::expect_list(const ConfigNode& node, const std::string& key)
{
  if (node.is_list())
    return true;
  error(node, key, "expected a list ([a, b, ...] or '- ' lines)");
  return false;
}

// --- MapReader -------------------------------------------------------------------------------

MapReader::MapReader(ConfigChecker& checker, const ConfigNode* node, std::string key)
    : checker_(checker), key_(std::move(key))
{
  // An empty section (`scheduler:` with nothing under it) reads as an empty map.
  if (node && (node->kind == ConfigNode::Kind::Null || checker_.expect_map(*node, key_)))
    map_ = node;
}

MapReader::MapReader(ConfigChecker& checker, const ConfigNode* node, std::string key,
                     const std::vector<std::string>& valid_keys)
    : MapReader(checker, node, std::move(key))
{
  if (!map_)
    return;
  for (const auto& entry : map_->entries)
    if (std::find(valid_keys.begin(), valid_keys.end(), entry.key) == valid_keys.end())
      checker_.error(entry.key_where, key_of(entry.key), "", "unknown key; valid keys here: " + join_names(valid_keys));
}

const ConfigNode* MapReader::get(std::string_view child) const
{
  return map_ ? map_->find(child) : nullptr;
}

bool MapReader::require(std::string_view child)
{
  if (get(child))
    return true;
  if (map_)
    checker_.error(map_->where, key_of(child), "", "missing required key");
  return false;
}

template <typename T, typename Check>
bool MapReader::assign(std::string_view child, T& out, Check check)
{
  const ConfigNode* node = get(child);
  const std::optional<T> v = node ? check(*node, key_of(child)) : std::nullopt;
  if (v)
    out = *v;
  return v.has_value();
}

bool MapReader::read(std::string_view child, int& out, const NumberRange& range)
{
  return assign(child, out, [&](const ConfigNode& node, const std::string& key) {
    return checker_.integer(node, key, range);
  });
}

bool MapReader::read(std::string_view child, double& out, const NumberRange& range)
{
  return assign(child, out, [&](const ConfigNode& node, const std::string& key) {
    return checker_.number(node, key, range);
  });
}

bool MapReader::read(std::string_view child, std::uint64_t& out)
{
  return assign(child, out, [&](const ConfigNode& node, const std::string& key) {
    return checker_.unsigned64(node, key);
  });
}

bool MapReader::read(std::string_view child, std::string& out)
{
  return assign(child, out, [&](const ConfigNode& node, const std::string& key) {
    return checker_.string(node, key);
  });
}

bool MapReader::read(std::string_view child, bool& out)
{
  std::string text;
  if (!read_choice(child, text, {"true", "false"}))
    return false;
  out = text == "true";
  return true;
}

bool MapReader::read_choice(std::string_view child, std::string& out, const std::vector<std::string>& choices)
{
  const ConfigNode* node = get(child);
  if (!node)
    return false;
  if (!node->is_scalar() || std::find(choices.begin(), choices.end(), node->scalar) == choices.end()) {
    checker_.error(*node, key_of(child), "expected one of: " + join_names(choices));
    return false;
  }
  out = node->scalar;
  return true;
}

} // namespace acmesim
