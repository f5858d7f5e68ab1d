#pragma once
// The names of an enum's values, declared once, next to the enum: what scenario files, CSV
// files, reports and messages call each value. Everything else derives from that declaration:
// to_string, parsing, the list of valid names in error messages and docs, and iteration over
// every value in a fixed order.
//
//   enum class Mode : std::uint8_t { Sync, Async };
//   constexpr EnumNames<Mode, 2> enum_names(Mode) { return {{{{Mode::Sync, "sync"}, {Mode::Async, "async"}}}}; }
//
// The declaring function is found by argument-dependent lookup, so it lives in the enum's
// namespace; its table order is the order of enum_values() and of every list derived from it.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace acmesim {

template <typename E, std::size_t N>
struct EnumNames {
  std::array<std::pair<E, std::string_view>, N> entries;
};

template <typename E>
concept NamedEnum = std::is_enum_v<E> && requires(E e) { enum_names(e).entries; };

template <NamedEnum E>
constexpr std::string_view to_string(E value)
{
  for (const auto& [v, name] : enum_names(E{}).entries)
    if (v == value)
      return name;
  return "?";
}

template <NamedEnum E>
constexpr std::optional<E> parse_enum(std::string_view name)
{
  for (const auto& [v, n] : enum_names(E{}).entries)
    if (n == name)
      return v;
  return std::nullopt;
}

// Every value, in declaration order.
template <NamedEnum E>
constexpr auto enum_values()
{
  constexpr auto entries = enum_names(E{}).entries;
  std::array<E, entries.size()> values{};
  for (std::size_t i = 0; i < entries.size(); ++i)
    values[i] = entries[i].first;
  return values;
}

template <NamedEnum E>
std::vector<std::string> enum_name_vector()
{
  std::vector<std::string> names;
  for (const auto& entry : enum_names(E{}).entries)
    names.emplace_back(entry.second);
  return names;
}

// "a, b, c", for messages.
template <NamedEnum E>
std::string enum_name_list()
{
  std::string out;
  for (const auto& entry : enum_names(E{}).entries)
    out.append(out.empty() ? "" : ", ").append(entry.second);
  return out;
}

} // namespace acmesim
